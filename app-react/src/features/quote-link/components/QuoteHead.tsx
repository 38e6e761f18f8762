import { useState } from 'react';

import { type CustomerQuote, quoteFileUrl } from '../api';
import { longDate } from '../format';

/** The shop (logo, name, details) and the quote's number, dates and version, as the PDF's head. */
export function QuoteHead({ token, quote }: { token: string; quote: CustomerQuote }) {
  const { shop } = quote;
  // A logo removed since the quote was read answers 404: no broken image in its place.
  const [logoShown, setLogoShown] = useState(true);
  return (
    <header className="quote-link-head">
      <div className="quote-link-head__shop">
        {shop.logo && logoShown ? (
          // Decorative: the shop's name follows as text.
          <img className="quote-link-head__logo" src={quoteFileUrl(token, 'logo')} alt="" onError={() => setLogoShown(false)} />
        ) : null}
        <p className="quote-link-head__name">{shop.name}</p>
        {shop.details.trim() ? <p className="quote-link-head__details">{shop.details.trim()}</p> : null}
      </div>
      <div className="quote-link-head__reference">
        <p className="quote-link-head__number">Quote {quote.number}</p>
        <p className="quote-link-head__dates">
          <span>Issued {longDate(quote.issued_on)}</span>
          <span>Valid until {longDate(quote.valid_until)}</span>
          {quote.revision > 1 ? <span>Version {quote.revision}</span> : null}
        </p>
      </div>
    </header>
  );
}
