// Reads design files in a Web Worker (design-worker.ts), never on the page's main thread: a large
// or crafted file takes its time there while the page keeps answering. One worker a page, started
// by the first read, loads the pricing module of the WebAssembly core once and reads every file
// after it.
import type { DesignFile } from '@bobbin/core-wasm';
import pricingWasmUrl from '@bobbin/core-wasm/bobbin_pricing_bg.wasm';

import type { DesignAnswer, DesignRequest } from './design-reading';
import workerUrl from './design-worker.ts?worker&url';

/** The pricing module's URL, which the `file` loader makes of the import (build.mjs, and
 * vitest.config.ts); TypeScript reads wasm-bindgen's declaration of the module's exports instead. */
const wasmUrl = pricingWasmUrl as unknown as string;

const STOPPED = 'The design reader stopped. Check the connection, then choose the file again.';

let worker: Worker | undefined;
let lastId = 0;
const waiting = new Map<number, { resolve: (file: DesignFile) => void; reject: (error: Error) => void }>();

function readerWorker(): Worker {
  if (worker) return worker;
  const started = new Worker(workerUrl, { name: 'design-reader' });
  started.addEventListener('message', (event: MessageEvent<DesignAnswer>) => {
    const reply = event.data;
    const read = waiting.get(reply.id);
    waiting.delete(reply.id);
    if ('file' in reply) read?.resolve(reply.file);
    else read?.reject(new Error(reply.error));
  });
  // The worker's script could not be loaded, or the worker failed: the reads under way fail,
  // and the next read starts a new worker.
  started.addEventListener('error', (event) => {
    event.preventDefault();
    started.terminate();
    if (worker === started) worker = undefined;
    for (const read of waiting.values()) read.reject(new Error(STOPPED));
    waiting.clear();
  });
  worker = started;
  return started;
}

/** A design file's figures and a preview of at most `maxPoints` points, read in the worker. An
 * unreadable or damaged file rejects with an Error whose message is written for people. `bytes`
 * is handed to the worker, not copied, and is empty afterwards. */
export function readDesignInWorker(bytes: ArrayBuffer, fileName: string, maxPoints: number): Promise<DesignFile> {
  const request: DesignRequest = { id: ++lastId, wasmUrl, bytes, fileName, maxPoints };
  return new Promise((resolve, reject) => {
    waiting.set(request.id, { resolve, reject });
    readerWorker().postMessage(request, [bytes]);
  });
}
