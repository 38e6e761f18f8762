// Where the quotes meet the teams: their pages are given the current team and whether the person's
// role there may change quotes (features never import one another).
import { useParams } from 'react-router';

import { QuotePage } from '@/features/quotes/quote-page';
import { QuotesPage } from '@/features/quotes/quotes-page';

import { WithTeam } from './with-team';

export function QuotesRoute() {
  return <WithTeam className="quotes" title="Quotes" page={(access) => <QuotesPage key={access.teamId} {...access} />} />;
}

export function QuoteRoute() {
  const { quoteId = '' } = useParams();
  return <WithTeam className="quotes" title="Quote" page={(access) => <QuotePage {...access} quoteId={quoteId} />} />;
}
