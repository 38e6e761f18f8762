import { CancelledError } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';

import { PageNotFound } from './page-not-found';
import { AppProvider } from './provider';
import { renderGuarded } from './test-navigation';

// The spec: "A fatal or unhandled error shows the error page; crawler user agents do not get it"
// (docs/behaviour.md, "Error pages"). A browser reports an error thrown outside React (a timer, an
// event listener) as an `error` event on window, and a rejection nobody handled as an
// `unhandledrejection` event; the tests dispatch those events as the browser would.

const GOOGLEBOT =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/131.0.6778.69 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

let consoleError: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(FIREFOX);
  // The errors are logged on purpose; the tests read what was logged.
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.restoreAllMocks();
});

function renderApp(page = <p>The page</p>) {
  return render(<AppProvider config={{ environment: 'production', version: '1.0.0' }}>{page}</AppProvider>);
}

/** What a browser dispatches for an error thrown by a script of this page, in a timer say. */
function thrown(error: unknown, filename = `${window.location.origin}/assets/main-ABC.js`) {
  return new ErrorEvent('error', { error, message: error instanceof Error ? error.message : String(error), filename, cancelable: true });
}

/** What a browser dispatches for a rejected promise nobody handled. */
function rejected(reason: unknown) {
  // A promise that never settles: a rejected one would be unhandled in Node, which runs the tests.
  return new PromiseRejectionEvent('unhandledrejection', { promise: new Promise(() => undefined), reason, cancelable: true });
}

function dispatch(event: Event) {
  act(() => {
    window.dispatchEvent(event);
  });
}

/** An error as thrown where `frames` say (V8's stack: the error's text, then a frame a line). */
function withStack(message: string, ...frames: string[]) {
  const error = new Error(message);
  error.stack = [`Error: ${message}`, ...frames.map((frame) => `    at ${frame}`)].join('\n');
  return error;
}

const errorPage = () => screen.queryByRole('heading', { name: 'Internal Server Error' });

describe('an unhandled error', () => {
  it('thrown outside React (a timer) shows the error page in place of the app, and is logged', () => {
    renderApp();
    const error = new Error('timer broke');
    dispatch(thrown(error));
    expect(errorPage()).toBeTruthy();
    expect(screen.getByText('500')).toBeTruthy();
    expect(screen.queryByText('The page')).toBeNull();
    expect(document.title).toBe('Bobbin - Internal Server Error');
    expect(consoleError).toHaveBeenCalledWith(expect.any(String), error);
  });

  it('of a promise nobody handled shows the error page', () => {
    renderApp();
    dispatch(rejected(new TypeError("Cannot read properties of undefined (reading 'id')")));
    expect(errorPage()).toBeTruthy();
    expect(screen.queryByText('The page')).toBeNull();
  });

  it('in a render outside the routes shows the error page', () => {
    function Broken(): never {
      throw new Error('render broke');
    }
    renderApp(<Broken />);
    expect(errorPage()).toBeTruthy();
  });

  it("is the app's even when a browser extension's script is further down its stack", () => {
    renderApp();
    // An extension that wraps timers or fetch is in every stack, below the app's frame.
    const frames = [`load (${window.location.origin}/assets/chunk-ABC.js:1:200)`, 'wrapped (moz-extension://0123-4567/wrap.js:3:9)'];
    dispatch(rejected(withStack('https://example.com/api broke', ...frames)));
    expect(errorPage()).toBeTruthy();
  });

  it('leaves the error page by a plain link home, which loads the app afresh', () => {
    renderApp();
    dispatch(rejected(new Error('broke')));
    expect(screen.getByRole('link', { name: 'Go to the home page' }).getAttribute('href')).toBe('/');
  });

  it.each([
    ["another origin's script ('Script error.', no error object)", () => new ErrorEvent('error', { message: 'Script error.' })],
    ['a script of another origin that shares its errors', () => thrown(new Error('tracker broke'), 'https://cdn.example.com/tracker.js')],
    ["a browser extension's script", () => thrown(new Error('extension broke'), 'chrome-extension://abcdefghijklmnop/content.js')],
    [
      'the ResizeObserver loop notice',
      () => new ErrorEvent('error', { message: 'ResizeObserver loop completed with undelivered notifications.' }),
    ],
    [
      "a rejection in a browser extension's script",
      () =>
        rejected(withStack('extension broke', 'inject (chrome-extension://abcdefghijklmnop/inject.js:1:10)', 'https://localhost/x.js:1:1')),
    ],
    ['a cancelled fetch (AbortError)', () => rejected(new DOMException('The operation was aborted.', 'AbortError'))],
    ['a cancelled query (TanStack Query)', () => rejected(new CancelledError())],
  ])('is not fatal when it is %s', (_what, event) => {
    renderApp();
    dispatch(event());
    expect(errorPage()).toBeNull();
    expect(screen.getByText('The page')).toBeTruthy();
  });
});

describe('a crawler', () => {
  beforeEach(() => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(GOOGLEBOT);
  });

  it('keeps the page as it is on an unhandled error, which is still logged', () => {
    renderApp();
    const error = new Error('timer broke');
    dispatch(thrown(error));
    dispatch(rejected(new Error('promise broke')));
    expect(errorPage()).toBeNull();
    expect(screen.getByText('The page')).toBeTruthy();
    expect(consoleError).toHaveBeenCalledWith(expect.any(String), error);
  });

  it('gets no error page for a render error outside the routes', () => {
    function Broken(): never {
      throw new Error('render broke');
    }
    renderApp(<Broken />);
    expect(errorPage()).toBeNull();
  });
});

describe("the routes' error page", () => {
  function renderRoute(guard: () => Promise<null>, page = <p>The page</p>) {
    const routes = [
      { path: '/', element: page },
      { path: '/other', element: <p>The other page</p> },
    ];
    return renderGuarded(routes, guard, '/');
  }
  const throws = () => Promise.reject(new Error('a guard broke'));
  const refuses = () => Promise.reject(new PageNotFound('Page Not Found: /inventory/threads/nope'));
  const lets = () => Promise.resolve(null);

  it('shows a person the 500 for a navigation that throws', async () => {
    renderRoute(throws);
    expect(await screen.findByRole('heading', { name: 'Internal Server Error' })).toBeTruthy();
    expect(screen.queryByText('The page')).toBeNull();
  });

  it('shows a crawler no 500 for a navigation that throws', async () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(GOOGLEBOT);
    renderRoute(throws);
    // Logged once the error page has had its turn to render.
    await vi.waitFor(() => expect(consoleError).toHaveBeenCalled());
    expect(errorPage()).toBeNull();
    expect(screen.queryByText('The page')).toBeNull();
  });

  it('still tells a crawler that a refused path is not found', async () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(GOOGLEBOT);
    renderRoute(refuses);
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeTruthy();
    expect(screen.getByText('Page Not Found: /inventory/threads/nope')).toBeTruthy();
  });

  it('shows the 500 in place of a page that throws while rendering, and the next page after a navigation', async () => {
    function Broken(): never {
      throw new Error('render broke');
    }
    const pages = renderGuarded(
      [
        { path: '/', element: <Broken /> },
        { path: '/other', element: <p>The other page</p> },
      ],
      lets,
      '/',
    );
    expect(await screen.findByRole('heading', { name: 'Internal Server Error' })).toBeTruthy();
    await act(async () => {
      await pages.navigate('/other');
    });
    expect(await screen.findByText('The other page')).toBeTruthy();
    expect(errorPage()).toBeNull();
  });
});
