import { type ReactNode, useEffect, useId, useRef, useState } from 'react';

import { FormAlert } from '@/components/form';

import type { CustomerQuote } from '../api';
import { counted, longDate } from '../format';
import { ApproveForm } from './ApproveForm';
import { QUOTE_CHANGED } from './answer-failure';
import { DeclineForm } from './DeclineForm';
import { QuestionForm } from './QuestionForm';

interface QuoteAnswerProps {
  token: string;
  quote: CustomerQuote;
  /** The quote on screen is a newer version than the one the page opened with. */
  changed: boolean;
}

/**
 * The customer's part: while the quote waits for them (sent, viewed), approving it, and, behind
 * their buttons, declining it or asking a question; once answered, expired or taken back to be
 * revised, where it stands, and nothing to do.
 */
export function QuoteAnswer({ token, quote, changed }: QuoteAnswerProps) {
  const id = useId();
  // Answered on this page: the answer's confirmation takes the focus the form's button had.
  const [answered, setAnswered] = useState(false);
  const awaitsCustomer = quote.status === 'sent' || quote.status === 'viewed';
  const done = () => setAnswered(true);
  return (
    // On paper, where the quote stands; the forms are for the screen.
    <section className={`card quote-link-answer${awaitsCustomer ? ' no-print' : ''}`} aria-labelledby={`${id}-answer`}>
      <h2 id={`${id}-answer`}>Your answer</h2>
      {awaitsCustomer ? (
        <>
          <ApproveForm token={token} quote={quote} onAnswered={done} />
          <Disclosure label="Decline">
            <DeclineForm token={token} quote={quote} onAnswered={done} />
          </Disclosure>
          <Disclosure label="Ask a question">
            <QuestionForm token={token} />
          </Disclosure>
        </>
      ) : (
        <>
          <FormAlert message={changed && !answered ? QUOTE_CHANGED : null} />
          <Standing quote={quote} focus={answered} />
        </>
      )}
    </section>
  );
}

/** Where a quote the customer cannot answer stands, in a sentence. */
function standing(quote: CustomerQuote): string {
  const { answer } = quote;
  if (answer?.kind === 'approved') {
    const order = answer.po_number.trim() ? `, order ${answer.po_number.trim()}` : '';
    return `Approved by ${answer.name} on ${longDate(answer.at)} for ${counted(answer.quantity, 'piece', 'pieces')}${order}.`;
  }
  if (answer?.kind === 'declined')
    return answer.reason.trim() ? `You declined this quote: ${answer.reason.trim()}` : 'You declined this quote.';
  if (quote.status === 'expired') return `This quote expired on ${longDate(quote.valid_until)}. Ask the shop for a new one.`;
  if (quote.status === 'draft') return 'The shop is revising this quote. You can answer it once they send it again.';
  return quote.status === 'approved' ? 'This quote is approved.' : 'This quote is closed.';
}

function Standing({ quote, focus }: { quote: CustomerQuote; focus: boolean }) {
  const line = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (focus) line.current?.focus();
  }, [focus]);
  return (
    <p ref={line} className={`quote-link-standing quote-link-standing--${quote.status}`} role="status" tabIndex={-1}>
      {standing(quote)}
    </p>
  );
}

/**
 * A secondary answer behind a button that shows its form (the WAI-ARIA disclosure pattern). The
 * form stays in the page while hidden, so what was typed is kept when it is closed and opened.
 */
function Disclosure({ label, children }: { label: string; children: ReactNode }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  return (
    <div className="quote-link-disclosure">
      <button type="button" className="button" aria-expanded={open} aria-controls={`${id}-panel`} onClick={() => setOpen(!open)}>
        {label}
      </button>
      <div id={`${id}-panel`} className="quote-link-disclosure__panel" hidden={!open}>
        {children}
      </div>
    </div>
  );
}
