import { useId } from 'react';

import { type QuoteDesignFacts, quoteFileUrl } from '../api';
import { counted, millimetres } from '../format';

/** The design: its drawing (when the shop priced it from its library) beside its figures. */
export function QuoteDesign({ token, design }: { token: string; design: QuoteDesignFacts }) {
  const id = useId();
  return (
    <section className="quote-link-design" aria-labelledby={`${id}-design`}>
      <h2 id={`${id}-design`}>Design</h2>
      <div className="quote-link-design__body">
        {design.preview ? (
          // A box of fixed shape: nothing below moves when the drawing arrives.
          <div className="quote-link-design__preview">
            <img src={quoteFileUrl(token, 'preview.svg')} alt={`Drawing of the design ${design.file_name}`} />
          </div>
        ) : null}
        <ul className="quote-link-design__facts">
          <li className="quote-link-design__file">{design.file_name}</li>
          <li>
            {millimetres(design.width_mm)} x {millimetres(design.height_mm)} mm
          </li>
          <li>{counted(design.stitches, 'stitch', 'stitches')}</li>
          <li>{counted(design.colours, 'colour', 'colours')}</li>
          {design.locations > 1 ? <li>{counted(design.locations, 'placement', 'placements')}</li> : null}
        </ul>
      </div>
    </section>
  );
}
