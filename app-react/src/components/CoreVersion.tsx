import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';

import { coreQueryOptions } from '@/lib/core';

/**
 * The version reported by the WebAssembly core: proof the offline tools can run here.
 *
 * The core (the converter's module, lib/core.ts) is fetched once the page is idle, not with it: a
 * first visit to a page that computes nothing is not slowed, and the browser then holds the module
 * for the converter. Pages that compute load it at once themselves; both share one load.
 */
export function CoreVersion() {
  const idle = useIdle();
  const core = useQuery({ ...coreQueryOptions, enabled: idle });
  let text = '\u00a0';
  if (core.data) text = `core ${core.data.version}`;
  else if (core.isError) text = 'offline tools unavailable';
  // A fixed width (components.css) keeps the footer from shifting when the text arrives.
  return (
    <span className="core-version" data-testid="core-version" data-state={core.status}>
      {text}
    </span>
  );
}

/** True once the browser has had a quiet moment after the first render (at most 2 s later). */
function useIdle(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (typeof requestIdleCallback === 'function') {
      const handle = requestIdleCallback(() => setIdle(true), { timeout: 2000 });
      return () => cancelIdleCallback(handle);
    }
    const handle = setTimeout(() => setIdle(true), 200);
    return () => clearTimeout(handle);
  }, []);
  return idle;
}
