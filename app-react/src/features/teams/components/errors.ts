/** A failed team call's message for a person: the server's, else `fallback`. */
export function messageOf(error: unknown, fallback: string): string {
  return error instanceof Error && error.message.trim() !== '' ? error.message : fallback;
}
