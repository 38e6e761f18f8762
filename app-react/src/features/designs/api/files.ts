// The library's writes, on the storage service area (/storage/v1, Supabase Storage's API) with
// the person's session: upload, rename (move) and remove. An upload goes by XMLHttpRequest, not
// fetch, because only it reports upload progress, which a shop uploading a folder of designs on
// a phone must see; the rest go through the API client as every other call does.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { ApiError, STORAGE_BASE, UNREACHABLE, api, storageApi, teamPath } from '@/lib/api-client';
import { type LibraryPage, libraryChanged } from '@/lib/design-library';
import { notify } from '@/lib/toast';

/** A key's path under the bucket, each segment escaped. */
export function objectPath(teamId: string, key: string): string {
  return `${encodeURIComponent(teamId)}/${key.split('/').map(encodeURIComponent).join('/')}`;
}

/** Where a file downloads from, with the session's cookie (a plain link). */
export function downloadUrl(teamId: string, key: string): string {
  return `${STORAGE_BASE}/object/authenticated/${objectPath(teamId, key)}`;
}

/** Characters the storage service refuses in a key (control characters, `\ ? #`), and the folder
 * separator, replaced: a file is stored by its own name at the top of the library. */
export function keyOf(fileName: string): string {
  // eslint-disable-next-line no-control-regex
  const cleaned = fileName.replace(/[\u0000-\u001f\u007f\u200e\u200f\u202a-\u202e\u2066-\u2069\\?#/]/g, '-').trim();
  // Cut by characters, never inside one (an emoji is two UTF-16 units).
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'design' : Array.from(cleaned).slice(0, 200).join('');
}

/** `rosa.dst`, then `rosa (2).dst`, `rosa (3).dst`…: the n-th name tried for a file. */
export function nthName(key: string, n: number): string {
  if (n <= 1) return key;
  const dot = key.lastIndexOf('.');
  return dot > 0 ? `${key.slice(0, dot)} (${n})${key.slice(dot)}` : `${key} (${n})`;
}

/** Sends `file` as `key`; `onProgress` hears the share sent (0 to 1). */
export function uploadFile(
  teamId: string,
  key: string,
  file: Blob,
  onProgress: (sent: number) => void,
  signal?: AbortSignal,
): Promise<{ Id: string; Key: string }> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `${STORAGE_BASE}/object/${objectPath(teamId, key)}`);
    request.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    request.setRequestHeader('Accept', 'application/json');
    request.responseType = 'json';
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    request.addEventListener('load', () => {
      const body = request.response as { Id?: string; Key?: string; message?: unknown; code?: unknown } | null;
      if (request.status >= 200 && request.status < 300 && body?.Id && body.Key) {
        resolve({ Id: body.Id, Key: body.Key });
        return;
      }
      const message = typeof body?.message === 'string' ? body.message : `The server answered ${request.status}.`;
      reject(new ApiError(request.status, typeof body?.code === 'string' ? body.code : 'error', message));
    });
    request.addEventListener('error', () => reject(new Error(UNREACHABLE)));
    request.addEventListener('abort', () => reject(new DOMException('The upload was stopped.', 'AbortError')));
    signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.send(file);
  });
}

/** How many names a file tries before the upload gives up on finding a free one. */
const NAMES_TRIED = 20;

/** The names of the team's files that hold `text`, as the library lists them (100 at most: past
 * that, the upload finds a free name by trying). */
async function namesHolding(teamId: string, text: string, signal?: AbortSignal): Promise<Set<string>> {
  const search = new URLSearchParams({ q: text, per_page: '100' });
  const listed = await api<LibraryPage>(teamPath(teamId, `designs?${search}`), signal ? { signal } : {});
  return new Set(listed.designs.map((design) => design.name));
}

/** Uploads `file` under its own name, or the first free `name (n).ext` when that is taken: the
 * library is asked first, so the file is sent once (again only if another took the name
 * meanwhile). */
export async function uploadDesign(teamId: string, file: File, onProgress: (sent: number) => void, signal?: AbortSignal) {
  const key = keyOf(file.name);
  const dot = key.lastIndexOf('.');
  const taken = await namesHolding(teamId, dot > 0 ? key.slice(0, dot) : key, signal);
  let n = 1;
  while (n < NAMES_TRIED && taken.has(nthName(key, n))) n += 1;
  for (; ; n += 1) {
    try {
      return await uploadFile(teamId, nthName(key, n), file, onProgress, signal);
    } catch (error) {
      const clash = error instanceof ApiError && error.status === 409;
      if (!clash || n >= NAMES_TRIED) throw error;
    }
  }
}

export function useRenameDesign(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ from, to }: { from: string; to: string }) =>
      storageApi<{ message: string }>('/object/move', {
        method: 'POST',
        body: { bucketId: teamId, sourceKey: from, destinationKey: to },
      }),
    onSuccess: (_answer, { to }) => notify.success(`Renamed to "${to}".`),
    onSettled: () => libraryChanged(queryClient, teamId),
  });
}

export function useRemoveDesign(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (key: string) =>
      storageApi<unknown[]>(`/object/${encodeURIComponent(teamId)}`, { method: 'DELETE', body: { prefixes: [key] } }),
    // Here, not in the caller's callbacks: the card that asked is gone once the list is read again.
    onSuccess: (_answer, key) => notify.success(`Removed "${key}".`),
    onError: (failure) => notify.error(failure instanceof Error ? failure.message : 'The file could not be removed.'),
    onSettled: () => libraryChanged(queryClient, teamId),
  });
}
