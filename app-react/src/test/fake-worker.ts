// The design reader's Web Worker in unit tests, where jsdom has no workers: it runs the worker's
// own code (lib/design-reading.ts) in the test's thread, answering after the current task as a
// worker does, and keeps what it was sent. `hold()` keeps the answers back until `release()`, for
// a test of what the page shows while a file is read.
import { type DesignAnswer, type DesignRequest, answer } from '@/lib/design-reading';

export class FakeWorker extends EventTarget {
  /** Every worker started, first first. */
  static started: FakeWorker[] = [];
  static held: (() => void)[] | null = null;

  readonly url: string;
  readonly received: DesignRequest[] = [];

  constructor(url: string | URL) {
    super();
    this.url = String(url);
    FakeWorker.started.push(this);
  }

  static hold() {
    FakeWorker.held = [];
  }

  static release() {
    const held = FakeWorker.held ?? [];
    FakeWorker.held = null;
    for (const send of held) send();
  }

  postMessage(request: DesignRequest) {
    this.received.push(request);
    void answer(request).then((reply: DesignAnswer) => {
      const send = () => this.dispatchEvent(new MessageEvent('message', { data: reply }));
      if (FakeWorker.held) FakeWorker.held.push(send);
      else setTimeout(send, 0);
    });
  }

  terminate() {}
}
