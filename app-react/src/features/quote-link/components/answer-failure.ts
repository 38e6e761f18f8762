import { ApiError } from '@/lib/api-client';

/** What an answer refused because the shop made a newer version (409 `quote_changed`) says. */
export const QUOTE_CHANGED = 'The shop changed this quote since you opened it: please read it again.';

/**
 * What a refused answer says near its button. The fields a 422 names among `fields` get their
 * own messages, under them (`setField`). The quote is read again by the call's hook (../api.ts).
 */
export function answerFailure<Field extends string>(
  error: unknown,
  fields: readonly Field[],
  setField: (field: Field, error: { message: string }) => void,
): string {
  if (error instanceof ApiError) {
    if (error.code === 'quote_changed') return QUOTE_CHANGED;
    for (const field of fields) {
      const message = error.fields?.[field];
      if (message) setField(field, { message });
    }
  }
  return error instanceof Error && error.message ? error.message : 'That could not be sent. Please try again.';
}
