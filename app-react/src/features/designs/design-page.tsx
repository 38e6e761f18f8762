// `/designs/{id}`: one file of the library: the large preview, the summary, the colour blocks in
// stitching order with their stitches, Download, "Price this design" (the pricing calculator with
// it), and the quotes priced from it.
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';

import { LibraryPreview } from '@/components/LibraryPreview';
import { LoadingStatus } from '@/components/LoadingStatus';
import { newJobPath, pageTitle, paths, pricingPath } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { type DesignBlock, type LibraryDesign, designQueryOptions, summaryOf } from '@/lib/design-library';
import { useOnline } from '@/lib/offline/online';

import { downloadUrl } from './api/files';
import { RemoveButton, RenameForm } from './components/DesignCard';
import { NOT_READABLE, PLAIN_FILE, formatBytes, formatCount, formatExtent, formatMoney, formatNames, formatWhen } from './format';
import type { LibraryAccess } from './types';

/** For blocks whose file stores no colour (DST, JEF, EXP): the preview's neutrals, in turn. */
const NEUTRALS = ['#44403c', '#a8a29e', '#1e3a8a', '#78716c', '#0f766e', '#57534e', '#9f1239', '#d6d3d1'];

export function DesignPage({ teamId, canWrite, designId }: LibraryAccess & { designId: string }) {
  const design = useQuery(designQueryOptions(teamId, designId));
  const missing = design.error instanceof ApiError && design.error.status === 404;
  return (
    <div className="designs design-page">
      <title>{pageTitle(design.data?.design.name ?? 'Design')}</title>
      <nav className="breadcrumb" aria-label="Breadcrumb">
        <ol>
          <li>
            <Link to={paths.designs}>Design Library</Link>
          </li>
          <li aria-current="page">Design</li>
        </ol>
      </nav>
      {design.data ? (
        <Design teamId={teamId} canWrite={canWrite} body={design.data} />
      ) : (
        <>
          <h1>Design</h1>
          <LoadingStatus query={design}>Loading the design…</LoadingStatus>
          {design.isError ? (
            <p role="alert">
              {missing ? "There is no such file in this team's library: it may have been removed." : 'The design could not be loaded.'}{' '}
              <Link to={paths.designs}>Back to the library</Link>
            </p>
          ) : null}
        </>
      )}
    </div>
  );
}

function Design({ teamId, canWrite, body }: LibraryAccess & { body: LibraryDesign }) {
  const id = useId();
  const navigate = useNavigate();
  const online = useOnline();
  const [renaming, setRenaming] = useState(false);
  const item = body.design;
  const summary = summaryOf(item);
  const blocks: DesignBlock[] = item.design && 'blocks' in item.design ? (item.design.blocks ?? []) : [];
  let neutral = 0;
  return (
    <>
      {renaming ? (
        <RenameForm teamId={teamId} name={item.name} done={() => setRenaming(false)} />
      ) : (
        <h1 className="design-page__title">{item.name}</h1>
      )}
      <div className="design-page__layout">
        <section className="card design-page__preview" aria-label="Preview">
          {summary ? (
            <LibraryPreview teamId={teamId} designId={item.id} etag={item.etag} name={item.name} size="lg" />
          ) : (
            <div className="library-preview library-preview--lg library-preview--none">
              <span>{item.design ? NOT_READABLE : PLAIN_FILE}</span>
            </div>
          )}
        </section>
        <section className="card design-page__summary" aria-labelledby={`${id}-summary`}>
          <h2 id={`${id}-summary`}>Summary</h2>
          <dl className="design-page__figures">
            {summary ? (
              <>
                <Figure term="Format" value={formatNames[summary.format]} />
                <Figure term="Stitches" value={formatCount(summary.stitches)} />
                <Figure term="Colour blocks" value={formatCount(summary.colours)} />
                {summary.threads_needed === undefined ? null : <Figure term="Threads" value={formatCount(summary.threads_needed)} />}
                <Figure term="Trims" value={summary.trims === null ? 'Not recorded' : formatCount(summary.trims)} />
                <Figure term="Jumps" value={formatCount(summary.jumps)} />
                <Figure term="Size" value={formatExtent(summary)} />
              </>
            ) : null}
            <Figure term="File" value={formatBytes(item.size)} />
            <Figure term="Added" value={formatWhen(item.created_at)} />
          </dl>
          {item.design && 'unreadable' in item.design ? (
            <p className="muted">
              {NOT_READABLE}: {item.design.unreadable}
            </p>
          ) : null}
          {item.design === null ? (
            <p className="muted">This file is kept as it is; Bobbin reads DST, PES, JEF, EXP and VP3 designs.</p>
          ) : null}
          <div className="actions">
            {summary ? (
              <Link className="button button--primary" to={pricingPath({ design: item.id })}>
                Price this design
              </Link>
            ) : null}
            {summary && canWrite ? (
              <Link className="button" to={newJobPath(item.id)}>
                Make a job
              </Link>
            ) : null}
            <a className="button" href={downloadUrl(teamId, item.name)} download={item.name.slice(item.name.lastIndexOf('/') + 1)}>
              Download
            </a>
            {canWrite && online && !renaming ? (
              <>
                <button type="button" className="button" onClick={() => setRenaming(true)}>
                  Rename
                </button>
                <RemoveButton teamId={teamId} name={item.name} onRemoved={() => void navigate(paths.designs)} />
              </>
            ) : null}
          </div>
        </section>
        {blocks.length > 0 ? (
          <section className="card design-page__blocks" aria-labelledby={`${id}-blocks`}>
            <h2 id={`${id}-blocks`}>Colour blocks in stitching order</h2>
            <ol className="design-blocks">
              {blocks.map((block, index) => {
                const colour = block.colour ?? NEUTRALS[neutral++ % NEUTRALS.length];
                return (
                  <li key={index} className="design-blocks__item">
                    <span className="swatch swatch--md" style={{ backgroundColor: colour }} aria-hidden="true" />
                    <span className="design-blocks__name">Block {index + 1}</span>
                    <span className="muted">{block.colour ?? 'Colour not stored in the file'}</span>
                    <span className="design-blocks__stitches">{formatCount(block.stitches)} stitches</span>
                  </li>
                );
              })}
            </ol>
          </section>
        ) : null}
        <section className="card design-page__quotes" aria-labelledby={`${id}-quotes`}>
          <h2 id={`${id}-quotes`}>Quotes priced from it</h2>
          {body.quotes.length === 0 ? (
            <p className="muted">No quote uses this design yet.</p>
          ) : (
            <ul className="item-list">
              {body.quotes.map((quote) => (
                <li key={quote.id} className="item-list__item">
                  <div className="item-list__text">
                    <Link to={pricingPath({ quote: quote.id })}>{quote.name}</Link>
                    <span className="muted">
                      {formatMoney(quote.total, quote.currency)} · {formatCount(quote.quantity)} {quote.quantity === 1 ? 'piece' : 'pieces'}{' '}
                      · <time dateTime={quote.created_at}>{formatWhen(quote.created_at)}</time>
                    </span>
                  </div>
                </li>
              ))}
            </ul>
          )}
          {body.quotes_total > body.quotes.length ? (
            <p className="muted">
              The newest {body.quotes.length} of {formatCount(body.quotes_total)} quotes.
            </p>
          ) : null}
        </section>
      </div>
    </>
  );
}

function Figure({ term, value }: { term: string; value: string }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{value}</dd>
    </div>
  );
}
