// Reading design files inside the design reader's Web Worker (design-worker.ts): the pricing
// module of the WebAssembly core, loaded once per worker on its first read, reads each file the
// page sends. A file of many blocks or stitches takes its time there, and the page stays
// responsive (docs/behaviour.md, "Design files").
import type { DesignFile } from '@bobbin/core-wasm';
import init, { readDesign } from '@bobbin/core-wasm/bobbin_pricing';

import { readable } from './core-errors';

/** What the page asks: a file's bytes (handed over, not copied), its name (which tells an EXP
 * file), the preview's most points, and the URL of the pricing module to load the first time. */
export interface DesignRequest {
  id: number;
  wasmUrl: string;
  bytes: ArrayBuffer;
  fileName: string;
  maxPoints: number;
}

/** The answer to request `id`: the design's figures and preview, or a sentence for the person. */
export type DesignAnswer = { id: number; file: DesignFile } | { id: number; error: string };

export const UNLOADED = 'The design reader could not be loaded. Check the connection, then choose the file again.';

let loaded: Promise<unknown> | undefined;

/** Reads one file; never throws. A failed load is tried again with the next file. */
export async function answer(request: DesignRequest): Promise<DesignAnswer> {
  try {
    loaded ??= init({ module_or_path: request.wasmUrl });
    await loaded;
  } catch {
    loaded = undefined;
    return { id: request.id, error: UNLOADED };
  }
  try {
    const file = readable(() => readDesign(new Uint8Array(request.bytes), request.fileName, request.maxPoints));
    return { id: request.id, file };
  } catch (error) {
    return { id: request.id, error: error instanceof Error ? error.message : 'The file could not be read.' };
  }
}
