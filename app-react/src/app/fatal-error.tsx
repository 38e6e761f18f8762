import { Component, type ReactNode } from 'react';

import { ErrorView } from '@/components/ErrorView';
import { isCrawler } from '@/lib/crawler';
import { watchUnhandledErrors } from '@/lib/unhandled-errors';

interface FatalErrorBoundaryProps {
  children: ReactNode;
}

interface FatalErrorBoundaryState {
  failed: boolean;
}

/**
 * The app's last line (docs/behaviour.md, "Error pages"): an error nothing else handled shows the
 * 500 error page in place of the whole app, whether React met it rendering outside the routes
 * (the routes have their own, ./routes/error-page.tsx) or window heard of it (thrown in a timer
 * or an event handler, or a promise rejected and never handled). There is no way back into the
 * broken app: the page's link home loads it afresh.
 *
 * A crawler never gets the error page: after an unhandled error its page stays as it is (it may
 * well be whole: the error was elsewhere); after a render error, which leaves nothing to show, the
 * page is empty.
 */
export class FatalErrorBoundary extends Component<FatalErrorBoundaryProps, FatalErrorBoundaryState> {
  override state: FatalErrorBoundaryState = { failed: false };
  #stopWatching: (() => void) | undefined;

  // React logs the render error itself (console.error), as for every error a boundary catches.
  static getDerivedStateFromError(): FatalErrorBoundaryState {
    return { failed: true };
  }

  override componentDidMount() {
    this.#stopWatching = watchUnhandledErrors((error) => {
      if (isCrawler()) {
        console.error('Unhandled error; a crawler keeps the page as it is:', error);
        return;
      }
      console.error('Unhandled error; the error page replaces the app:', error);
      this.setState({ failed: true });
    });
  }

  override componentWillUnmount() {
    this.#stopWatching?.();
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    if (isCrawler()) return null;
    return <ErrorView status={500} title="Internal Server Error" />;
  }
}
