// The thin facade over the WebAssembly core (crates/wasm). The module is fetched and compiled
// once per page load, streamed (WebAssembly.instantiateStreaming, since the server sends
// application/wasm) from a content-hashed URL the browser caches for good. Callers never touch
// wasm-bindgen's generated module directly.
import { queryOptions } from '@tanstack/react-query';
import wasmUrl from '@bobbin/core-wasm/bobbin_wasm_bg.wasm';

export interface Core {
  /** Version of the domain core compiled into the module. */
  version: string;
}

let loading: Promise<Core> | undefined;

/** Loads the core on first call; later calls share the same promise. A failure can be retried. */
export function loadCore(): Promise<Core> {
  loading ??= (async () => {
    const wasm = await import('@bobbin/core-wasm');
    await wasm.default({ module_or_path: wasmUrl });
    return { version: wasm.coreVersion() };
  })().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

export const coreQueryOptions = queryOptions({
  queryKey: ['core'],
  queryFn: loadCore,
  staleTime: Number.POSITIVE_INFINITY,
  gcTime: Number.POSITIVE_INFINITY,
  retry: 1,
});
