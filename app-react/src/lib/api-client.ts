// The product API (docs/behaviour.md, "Calling the product API"): base path /api/v2, credentials
// included (the server reads the session from the auth cookie), no retry, a 20-second timeout whose
// abort reason is 'Request timeout', a JSON content type for bodies other than form data, and
// statuses 400 to 599 as errors. Errors carry the server's `{ code, message, fields? }` (README,
// "The API").

import { isGatewayFailure, watchedFetch } from './offline/online';
import { createMemoryStore } from './store';

export const API_BASE = '/api/v2';
export const API_TIMEOUT_MS = 20_000;
export const TIMEOUT_REASON = 'Request timeout';
/** A call that got no answer: no connection, or the server is down. */
export const UNREACHABLE = 'Bobbin could not reach the server. Check the connection and try again.';

/** A call that got no answer from Bobbin (`UNREACHABLE`): a kept write waits and is sent again. */
export class UnreachableError extends Error {
  constructor(options?: ErrorOptions) {
    super(UNREACHABLE, options);
  }
}

/**
 * What every query of the product API shares, whatever feature reads it: no retry (the app's
 * default of 3 retries is for other fetches), and answers fresh for the default 2 minutes
 * (docs/behaviour.md, "Calling the product API" and "Cache lifetimes"), which a read with a
 * lifetime of its own overrides. A failed refetch keeps the data it had, which TanStack Query does
 * by itself ("on a failed read stale cached data is returned"). Marked to be kept across reloads,
 * for offline use (`meta.persist`, lib/offline/persist.ts); offline, it waits for the connection
 * (`online`: no service worker answers the API).
 */
export const productQuery = { retry: false, staleTime: 2 * 60_000, networkMode: 'online', meta: { persist: true } } as const;

/** The path under /api/v2 of team `teamId`, or of its resource `rest` ('members', 'threads/…'). */
export function teamPath(teamId: string, rest?: string): string {
  const team = `/teams/${encodeURIComponent(teamId)}`;
  return rest ? `${team}/${rest}` : team;
}

export interface ApiErrorDetails {
  /** Per-field messages of a 422 `validation_failed` answer. */
  fields?: Record<string, string>;
  /** A `statusMessage`, when a server sends one (shown before `message`). */
  statusMessage?: string;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly fields: Record<string, string> | undefined;
  readonly statusMessage: string | undefined;

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    details: ApiErrorDetails = {},
  ) {
    super(message);
    this.fields = details.fields;
    this.statusMessage = details.statusMessage;
  }
}

export interface ApiRequest extends Omit<RequestInit, 'body' | 'headers'> {
  /** A plain value is sent as JSON; FormData as is. */
  body?: unknown;
  /** Added to (or replacing) the JSON headers. */
  headers?: Record<string, string>;
}

let secondFactorListener: (() => void) | undefined;

/**
 * Hears every answer 401 `insufficient_aal`: the session must reach aal2 (the code of the
 * person's authenticator app) before the API answers. The app root takes the person to the code
 * prompt. Answers the unregistering.
 */
export function whenSecondFactorNeeded(listener: () => void): () => void {
  secondFactorListener = listener;
  return () => {
    if (secondFactorListener === listener) secondFactorListener = undefined;
  };
}

/**
 * How many product API calls are running now: the global loading indicator is on while any is
 * (docs/behaviour.md, "Layouts, loading and banners"). Counted here, where every call passes,
 * so a call made outside the data cache (creating the personal team, saving the default team)
 * counts too, and fetches that are not API calls (the WebAssembly core, the catalogue) do not.
 */
export const apiActivity = createMemoryStore<{ running: number }>(() => ({ running: 0 }));

/** Calls `path` under /api/v2 and answers its JSON body (undefined for 204). */
export function api<T>(path: string, request: ApiRequest = {}): Promise<T> {
  return counted(`${API_BASE}${path}`, request, async (response) => (await response.json()) as T);
}

/** Calls `path` under /api/v2 and answers its body as text (an SVG preview). */
export function apiText(path: string, request: ApiRequest = {}): Promise<string> {
  return counted(`${API_BASE}${path}`, { ...request, headers: { Accept: '*/*', ...request.headers } }, (response) => response.text());
}

/** The storage service area (Supabase Storage's API: the team's files), as the same session. */
export const STORAGE_BASE = '/storage/v1';

/** Calls `path` under /storage/v1 and answers its JSON body; its errors (`{ statusCode, error,
 * message, code }`) are ApiErrors as the product API's are. */
export function storageApi<T>(path: string, request: ApiRequest = {}): Promise<T> {
  return counted(`${STORAGE_BASE}${path}`, request, async (response) => (await response.json()) as T);
}

async function counted<T>(url: string, request: ApiRequest, read: (response: Response) => Promise<T>): Promise<T> {
  apiActivity.setState((state) => ({ running: state.running + 1 }));
  try {
    return await call<T>(url, request, read);
  } finally {
    apiActivity.setState((state) => ({ running: state.running - 1 }));
  }
}

async function call<T>(url: string, { body, signal, headers, ...init }: ApiRequest, read: (response: Response) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(TIMEOUT_REASON), API_TIMEOUT_MS);
  // A caller's signal (TanStack Query cancelling) aborts too. AbortSignal.any is newer than the
  // browsers the build targets, hence by hand.
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  signal?.addEventListener('abort', onAbort, { once: true });

  const sendsJson = body !== undefined && !(body instanceof FormData);
  try {
    const response = await watchedFetch(url, {
      ...init,
      credentials: 'include',
      headers: { Accept: 'application/json', ...(sendsJson ? { 'Content-Type': 'application/json' } : {}), ...headers },
      body: body === undefined ? null : sendsJson ? JSON.stringify(body) : body,
      signal: controller.signal,
    });
    // No answer from Bobbin (a proxy's): the app now counts as offline (./offline/online.ts).
    if (isGatewayFailure(response)) throw new UnreachableError();
    if (response.status >= 400) {
      const error = await errorOf(response);
      if (error.code === 'insufficient_aal') secondFactorListener?.();
      throw error;
    }
    if (response.status === 204) return undefined as T;
    return await read(response);
  } catch (error) {
    // fetch rejects with the abort reason itself only in some browsers; make it one Error.
    if (controller.signal.aborted && controller.signal.reason === TIMEOUT_REASON) throw new Error(TIMEOUT_REASON, { cause: error });
    // No answer at all (no connection, the server down): the app now counts as offline, and
    // the browser's "Failed to fetch" says nothing to a person.
    if (error instanceof TypeError && !controller.signal.aborted) throw new UnreachableError({ cause: error });
    throw error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

export async function errorOf(response: Response): Promise<ApiError> {
  try {
    const body = (await response.json()) as { code?: unknown; message?: unknown; fields?: unknown; statusMessage?: unknown };
    const statusMessage = typeof body.statusMessage === 'string' ? body.statusMessage : undefined;
    if (typeof body.message === 'string' || statusMessage) {
      const details: ApiErrorDetails = {};
      if (statusMessage) details.statusMessage = statusMessage;
      if (body.fields && typeof body.fields === 'object') details.fields = stringsOf(body.fields);
      const message = typeof body.message === 'string' ? body.message : '';
      return new ApiError(response.status, typeof body.code === 'string' ? body.code : 'error', message, details);
    }
  } catch {
    // Not JSON (a proxy's error page): the status says enough.
  }
  return new ApiError(response.status, 'error', response.statusText || `HTTP ${response.status}`);
}

/**
 * The server's `fields` as field name to message: a list of `{ field, code, message }` (this
 * server's shape; the first message of a field wins) or a plain map of name to message.
 */
function stringsOf(fields: object): Record<string, string> {
  const out: Record<string, string> = {};
  if (Array.isArray(fields)) {
    for (const entry of fields as unknown[]) {
      if (!entry || typeof entry !== 'object') continue;
      const { field, message } = entry as { field?: unknown; message?: unknown };
      if (typeof field === 'string' && typeof message === 'string' && !(field in out)) out[field] = message;
    }
    return out;
  }
  for (const [name, message] of Object.entries(fields)) {
    if (typeof message === 'string') out[name] = message;
  }
  return out;
}
