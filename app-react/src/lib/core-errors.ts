// The WebAssembly core's errors as sentences to show a person, wherever the core runs: in the page
// (core.ts) and in the design reader's worker (design-reading.ts), which must not load the page's
// facade and what it imports.

/** Runs a core call, turning its error (Rust style: "there is no thread line 'x'") into a
 * sentence to show a person: "There is no thread line 'x'." */
export function readable<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const sentence = message.charAt(0).toUpperCase() + message.slice(1);
    throw new Error(/[.!?]$/.test(sentence) ? sentence : `${sentence}.`, { cause: error });
  }
}
