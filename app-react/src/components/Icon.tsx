// The app's icons (docs/behaviour.md, "Icons"): Lucide's, served by Bobbin itself at
// `/icons/lucide/{name}.svg` (crates/server/src/routes/icons.rs), drawn in the text's colour
// through a CSS mask. Each is fetched once per page load through the data cache, which retries a
// failed fetch up to 3 times (a CSS image the browser fetched itself would not be retried), and
// kept as a `data:` URL; the browser's HTTP cache serves later page loads.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CSSProperties } from 'react';

import { iconNames } from '@/config/icons';
import { retriedFetch } from '@/lib/query-client';

export { iconNames };
export type IconName = (typeof iconNames)[number];

/** The sizes an icon may be drawn at, in CSS pixels (20 unless a place asks for another). */
export const iconSizes = [16, 20, 24] as const;
export type IconSize = (typeof iconSizes)[number];

/** Where the icon `name` is served. */
export function iconUrl(name: string): string {
  return `/icons/lucide/${name}.svg`;
}

/** The icon `name` as a CSS `url(data:...)`, for the mask. */
export function iconQueryOptions(name: string) {
  return queryOptions({
    queryKey: ['icons', name],
    queryFn: async ({ signal }) => {
      const response = await fetch(iconUrl(name), { signal });
      if (!response.ok) throw new Error(`The icon ${name} answered HTTP ${response.status}`);
      return `url("data:image/svg+xml,${encodeURIComponent(await response.text())}")`;
    },
    ...retriedFetch,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
}

interface IconProps {
  /** One of `iconNames`, so that `/test/vector` shows every icon the app uses. */
  name: IconName;
  size?: IconSize;
  className?: string;
}

/**
 * A decorative icon (hidden from screen readers: the control it sits in says what it does). Its
 * box is there from the first render, so the icon arriving moves nothing.
 */
export function Icon({ name, size = 20, className }: IconProps) {
  const { data } = useQuery(iconQueryOptions(name));
  const style = { '--icon': data ?? 'none', '--icon-size': `${size / 16}rem` } as CSSProperties;
  // Until it arrives, the box is empty (`icon--pending`), not a square of the text's colour.
  const classes = ['icon', data ? '' : 'icon--pending', className ?? ''].filter(Boolean).join(' ');
  return <span className={classes} style={style} aria-hidden="true" data-icon={name} />;
}
