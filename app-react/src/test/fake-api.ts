// A stand-in for the product API in unit tests: `fetch` stubbed with handlers keyed by
// 'METHOD /path' (the path under /api/v2, query included). An unknown call answers 404, so a
// test sees what it did not expect.

export type Handler = (body: unknown) => Response | Promise<Response>;

export interface FakeApi {
  handlers: Record<string, Handler>;
  /** Every call made, as 'METHOD /path' with its JSON body. */
  calls: { route: string; body: unknown }[];
  /** The calls to `route`. */
  callsTo: (route: string) => unknown[];
}

export function fakeApi(handlers: Record<string, Handler>): FakeApi {
  const api: FakeApi = {
    handlers,
    calls: [],
    callsTo: (route) => api.calls.filter((call) => call.route === route).map((call) => call.body),
  };
  vi.stubGlobal(
    'fetch',
    // The app calls fetch with a URL string, never a Request.
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const path = url.replace(/^\/api\/v2/, '');
      const route = `${init.method ?? 'GET'} ${path}`;
      const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      api.calls.push({ route, body });
      const handler = api.handlers[route];
      if (!handler) return Response.json({ code: 'not_found', message: `No route ${route}` }, { status: 404 });
      return handler(body);
    }),
  );
  return api;
}

/** An error answer as the server sends it. */
export function apiError(status: number, code: string, message: string, extra: Record<string, unknown> = {}): Response {
  return Response.json({ code, message, ...extra }, { status });
}
