import { useQuery } from '@tanstack/react-query';

import { coreQueryOptions } from '@/lib/core';

/** The version reported by the WebAssembly core: proof the offline tools can run here. */
export function CoreVersion() {
  const core = useQuery(coreQueryOptions);
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
