const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** A server timestamp as a date for people ('—' when it cannot be read). */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '—' : dateFormat.format(date);
}
