/* tslint:disable */
/* eslint-disable */
export const memory: WebAssembly.Memory;
export const catalogueLine: (a: number, b: number) => [number, number, number];
export const catalogueLines: () => [number, number, number];
export const convert: (a: any) => [number, number, number];
export const convertBulk: (a: any) => [number, number, number];
export const convertBulkCsv: (a: any) => [number, number, number, number];
export const coreVersion: () => [number, number];
export const defaultRates: () => [number, number, number];
export const deltaE2000: (a: number, b: number, c: number, d: number, e: number, f: number) => number;
export const loadCatalogue: (a: number, b: number) => [number, number];
export const priceJob: (a: any) => [number, number, number];
export const readDesign: (a: number, b: number, c: number, d: number, e: number) => [number, number, number];
export const searchThreads: (a: number, b: number, c: number, d: number, e: number) => [number, number, number];
export const start: () => void;
export const __wbindgen_malloc: (a: number, b: number) => number;
export const __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
export const __wbindgen_free: (a: number, b: number, c: number) => void;
export const __wbindgen_exn_store: (a: number) => void;
export const __externref_table_alloc: () => number;
export const __wbindgen_externrefs: WebAssembly.Table;
export const __externref_table_dealloc: (a: number) => void;
export const __externref_drop_slice: (a: number, b: number) => void;
export const __wbindgen_start: () => void;
