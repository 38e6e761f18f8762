// What happened to the quote, newest first: who made, changed, sent and withdrew it, and the
// customer's views, answers and questions.
import type { QuoteEvent } from '../api';
import { when } from '../format';

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** One line of the history in words. */
export function describe(event: QuoteEvent): string {
  const detail = event.detail as Record<string, unknown>;
  const by = event.by ? (event.by.name ?? event.by.email) : 'A former member';
  switch (event.kind) {
    case 'made':
      return `${by} saved it`;
    case 'revised':
      return `${by} changed it (version ${event.revision})`;
    case 'sent':
      return text(detail.to) ? `${by} e-mailed it to ${text(detail.to)}` : `${by} made a link to it`;
    case 'viewed':
      return `The customer opened version ${event.revision}`;
    case 'approved': {
      const order = text(detail.po_number) ? `, order ${text(detail.po_number)}` : '';
      return `Approved by ${text(detail.name)} for ${String(detail.quantity)} pieces${order}`;
    }
    case 'declined':
      return `Declined: ${text(detail.reason)}`;
    case 'asked':
      return `${text(detail.name) || 'The customer'} asked: ${text(detail.message)}`;
    case 'revoked':
      return `${by} withdrew its links`;
    case 'job_made':
      return `${by} made its job`;
  }
}

export function QuoteHistory({ events }: { events: QuoteEvent[] }) {
  return (
    <ol className="quote-history">
      {events.map((event, index) => (
        <li key={`${event.at}-${index}`}>
          <time dateTime={event.at}>{when(event.at)}</time>
          <span className="quote-history__what">{describe(event)}</span>
        </li>
      ))}
    </ol>
  );
}
