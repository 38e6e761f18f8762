// Sentences built around names people typed: "The team is now called Stitch & Thread Co."
// must not end in two full stops.

/** `text` ending in one full stop: none is added after a `.`, `!` or `?` it already ends with. */
export function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
