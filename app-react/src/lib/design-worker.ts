// The design reader's Web Worker: each message is a file to read (design-reading.ts), each answer
// its figures or why it cannot be read. build.mjs bundles it into a script of its own, which
// design-reader.ts starts.
import { type DesignRequest, answer } from './design-reading';

/** The part of a dedicated worker's global scope used here (the app's types are the page's). */
interface WorkerScope {
  addEventListener(type: 'message', listener: (event: MessageEvent<DesignRequest>) => void): void;
  postMessage(message: unknown): void;
}

const scope = self as unknown as WorkerScope;

scope.addEventListener('message', (event) => {
  void answer(event.data).then((reply) => scope.postMessage(reply));
});
