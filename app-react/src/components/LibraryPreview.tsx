// A design's preview as the server drew it (lib/design-library.ts), in a box of fixed shape so
// nothing moves when it arrives. Shown as an image (a data: URL of the SVG), never put into the
// page: an image runs no script, whatever a file held.
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';

import { ApiError } from '@/lib/api-client';
import { previewQueryOptions } from '@/lib/design-library';

export function LibraryPreview({
  teamId,
  designId,
  etag = '',
  name,
  size = 'md',
  colours,
}: {
  teamId: string;
  designId: string;
  /** The file's ETag, when known: a preview seen is then kept until the file changes. */
  etag?: string;
  /** The file's name, for the image's text. */
  name: string;
  size?: 'sm' | 'md' | 'lg';
  /** A colour (`#rrggbb`) for each colour block in stitching order, drawn instead of the file's
   * (a job's threads); null keeps a block's own. */
  colours?: readonly (string | null)[];
}) {
  const preview = useQuery(previewQueryOptions(teamId, designId, etag));
  const src = useMemo(() => {
    if (!preview.data) return null;
    return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(colours ? recoloured(preview.data, colours) : preview.data)}`;
  }, [preview.data, colours]);
  return (
    <div className={`library-preview library-preview--${size}`}>
      {src ? (
        <img src={src} alt={`Preview of ${name}`} />
      ) : preview.isError ? (
        <p className="muted">
          {preview.error instanceof ApiError && preview.error.status === 404
            ? 'No preview: the file is no longer in the library, or no longer a design Bobbin can read.'
            : 'The preview could not be loaded.'}
        </p>
      ) : preview.fetchStatus === 'paused' ? (
        <p className="muted">Preview not seen yet on this device.</p>
      ) : (
        <span className="library-preview__loading" role="status">
          <span className="visually-hidden">Loading the preview of {name}…</span>
        </span>
      )}
    </div>
  );
}

const HEX = /^#[0-9a-fA-F]{6}$/;

/** The server's preview with each block's group (`<g stroke="...">`, one per colour block in
 * stitching order) drawn in `colours`; only colours of the `#rrggbb` shape are written. */
export function recoloured(svg: string, colours: readonly (string | null)[]): string {
  let block = 0;
  return svg.replace(/<g stroke="[^"]*">/g, (group) => {
    const colour = colours[block++];
    return colour && HEX.test(colour) ? `<g stroke="${colour}">` : group;
  });
}
