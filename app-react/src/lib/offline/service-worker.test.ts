import { buildState } from '../builds';

// The issue: "Updates are offered, not forced. A new build's service worker waits; the app offers
// a reload (tie this to the latest-build manifest if that exists by then)."
// workbox-window is replaced by a stand-in that records what the page asks of the worker.
const worker = vi.hoisted(() => ({
  build: 'build-2',
  listeners: new Map<string, () => void>(),
  skipWaiting: vi.fn(),
  update: vi.fn(() => Promise.resolve()),
  registered: vi.fn(),
}));

vi.mock('workbox-window', () => ({
  Workbox: class {
    constructor(url: string) {
      worker.registered(url);
    }
    addEventListener(type: string, listener: () => void) {
      worker.listeners.set(type, listener);
    }
    register() {
      return Promise.resolve();
    }
    messageSW(message: { type: string }) {
      return Promise.resolve(message.type === 'GET_BUILD' ? { build: worker.build } : null);
    }
    messageSkipWaiting() {
      worker.skipWaiting();
    }
    update() {
      return worker.update();
    }
  },
}));

describe('the service worker', () => {
  const reload = vi.fn();

  beforeEach(() => {
    document.head.insertAdjacentHTML('beforeend', '<meta name="bobbin-build" content="build-1">');
    Object.defineProperty(navigator, 'serviceWorker', { value: {}, configurable: true });
    vi.stubGlobal('location', { reload });
    // Registered when the browser is idle: at once here.
    vi.stubGlobal('requestIdleCallback', (task: () => void) => task());
    vi.resetModules();
  });

  afterEach(() => {
    document.head.querySelector('meta[name="bobbin-build"]')?.remove();
    Reflect.deleteProperty(navigator, 'serviceWorker');
    buildState.setState({ newBuild: null, workerWaiting: false });
    vi.unstubAllGlobals();
    vi.clearAllMocks();
    worker.listeners.clear();
  });

  /** A fresh module (one registration per page), registered, and its `waiting` event heard. */
  async function registered() {
    const module = await import('./service-worker');
    const { buildState: state } = await import('../builds');
    module.registerServiceWorker();
    await vi.waitFor(() => expect(worker.registered).toHaveBeenCalledWith('/sw.js'));
    return { module, state };
  }

  it('offers a reload when a worker of another build waits, and lets it take over only on Reload', async () => {
    worker.build = 'build-2';
    const { module, state } = await registered();
    worker.listeners.get('waiting')?.();
    await vi.waitFor(() => expect(state.getState().workerWaiting).toBe(true));
    expect(worker.skipWaiting).not.toHaveBeenCalled();

    const reloaded = module.reloadIntoNewBuild();
    await vi.waitFor(() => expect(worker.skipWaiting).toHaveBeenCalledTimes(1));
    expect(reload).not.toHaveBeenCalled();
    // The new worker controls the page: then it loads again, from the new build.
    worker.listeners.get('controlling')?.();
    expect(reload).toHaveBeenCalledTimes(1);
    await reloaded;
  });

  it("lets a worker of the page's own build take over at once, offering nothing", async () => {
    worker.build = 'build-1';
    const { state } = await registered();
    worker.listeners.get('waiting')?.();
    await vi.waitFor(() => expect(worker.skipWaiting).toHaveBeenCalledTimes(1));
    expect(state.getState().workerWaiting).toBe(false);
  });

  it('asks the browser for the new worker as soon as the build manifest names a new build', async () => {
    const { module } = await registered();
    await module.checkForUpdate();
    expect(worker.update).toHaveBeenCalledTimes(1);
  });
});
