// Imports that esbuild (build.mjs) handles and TypeScript does not know by itself.

// The `file` loader turns an imported .wasm file into its hashed URL.
declare module '*.wasm' {
  const url: string;
  export default url;
}

// The `file` loader (build.mjs) also turns the compact thread catalogue into its hashed URL.
declare module '*.bin' {
  const url: string;
  export default url;
}

// Stylesheets are bundled into the page's CSS file; importing one yields nothing.
declare module '*.css';

// The widget's build (build.mjs) inlines the compact thread catalogue as bytes.
declare module 'bobbin:catalogue-bytes' {
  const bytes: Uint8Array;
  export default bytes;
}

// A Web Worker's script (build.mjs bundles the module into a script of its own): its URL.
declare module '*?worker&url' {
  const url: string;
  export default url;
}
