// `/calculators/pricing` ('Pricing Calculator'): the price of a job, computed in the page by the
// core as the inputs change (no server round trip, so it prices offline too), from a design
// file's stitch count or a typed one; the team's price list; saving and reopening quotes.
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';

import { newJobPath, pageTitle, paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { type ColourBlock, type PriceProblem, type Pricing, type PricingCore, type Rates, pricingQueryOptions } from '@/lib/core';
import { designQueryOptions, fileNameOf, summaryOf } from '@/lib/design-library';
import { wholeNumber } from '@/lib/text';
import { THREAD_USAGE, formatLength, lengthUnit } from '@/lib/thread-usage';

import { type PricingMachine, useMachines } from './api/get-machines';
import { useQuote } from './api/get-quote';
import { DesignDrop, type ReadDesign } from './components/DesignDrop';
import { DesignView } from './components/DesignView';
import { JobInputs } from './components/JobInputs';
import { LibraryPicker } from './components/LibraryPicker';
import { PriceList } from './components/PriceList';
import { QuoteResult } from './components/QuoteResult';
import { SaveQuote } from './components/SaveQuote';
import { SavedQuotes } from './components/SavedQuotes';
import { UnreadableQuote } from './saved-quote';
import {
  type JobFields,
  RATE_FIELDS,
  effectiveRates,
  emptyJob,
  preferredLine,
  fieldsOfJob,
  jobOf,
  moneyFormat,
  problemsByField,
  teamCurrency,
} from './model';
import { type PricingAccess, type SavedDesign, canEditRates, canWriteQuotes } from './types';

const TITLE = 'Pricing Calculator';
const NO_MACHINES: PricingMachine[] = [];

export function PricingPage(access: PricingAccess) {
  const core = useQuery(pricingQueryOptions);
  return (
    <div className="pricing">
      <title>{pageTitle(TITLE)}</title>
      <h1>{TITLE}</h1>
      {core.data ? (
        <Calculator core={core.data} {...access} />
      ) : core.isError ? (
        <p role="alert">The calculator could not be loaded. Check the connection and reload the page.</p>
      ) : (
        <p role="status">Loading the calculator…</p>
      )}
    </div>
  );
}

/** A design on screen: read from a file now (with its preview), from the team's library (whose
 * preview the server drew), or saved with a quote (which may name its library design). */
interface DesignState {
  fileName: string;
  summary: SavedDesign['summary'];
  preview: ReadDesign['file']['preview'] | null;
  /** Its colour blocks, for the thread it takes (a saved quote keeps the figure instead). */
  blocks: ColourBlock[] | null;
  /** A saved quote's thread per piece, in metres. */
  savedThreadM?: string | null;
  /** Its id in the team's library, and its content's ETag where known. */
  library: { id: string; etag: string } | null;
}

/** What a rates problem is about, for a person: "Tax (%)". */
function rateLabel(field: string): string {
  const key = field.replace(/^rates\./, '');
  const known = RATE_FIELDS.find(([name]) => name === key);
  if (known) return known[1];
  if (key.startsWith('quantity_breaks')) return 'Quantity breaks';
  if (key.startsWith('profit')) return 'Profit on materials';
  return key;
}

/** The price kept in view at the bottom of the job while its inputs scroll (a copy of the
 * figures in the Price section, so hidden from screen readers, which read those). */
function PriceBar({ perPiece, total, decimals, currency }: { perPiece: string; total: string; decimals: number; currency: string }) {
  const money = moneyFormat(currency, decimals);
  return (
    <div className="pricing-bar" aria-hidden="true">
      <span>
        <strong>{money(perPiece)}</strong> a piece
      </span>
      <span>
        <strong>{money(total)}</strong> in all
      </span>
    </div>
  );
}

/** The server keeps at most 4 KiB of design figures; a design of very many colours drops its
 * colour list (the counts stay) rather than fail to save. */
const MAX_DESIGN_BYTES = 4096;

export function savedDesignOf(design: { fileName: string; summary: SavedDesign['summary']; library?: { id: string } | null }): SavedDesign {
  const id = design.library ? { id: design.library.id } : {};
  const saved = { file_name: design.fileName, summary: design.summary, ...id };
  if (new TextEncoder().encode(JSON.stringify(saved)).length <= MAX_DESIGN_BYTES) return saved;
  return { file_name: design.fileName.slice(0, 200), summary: { ...design.summary, thread_colours: [] }, ...id };
}

function Calculator({ core, teamId, role, settings, saveSettings }: PricingAccess & { core: PricingCore }) {
  const id = useId();
  const [params, setParams] = useSearchParams();
  const quoteId = params.get('quote') ?? '';
  // A design of the library to price (`?design=`), unless a saved quote is reopened.
  const designId = quoteId ? '' : (params.get('design') ?? '');
  const reopened = useQuote(teamId, quoteId);
  const picked = useQuery(designQueryOptions(teamId, designId));
  const saved = quoteId && reopened.data?.id === quoteId ? reopened.data : null;
  const machines = useMachines(teamId);
  const [design, setDesign] = useState<DesignState | null>(null);
  // The stitches and colours of the library design last chosen, put in the job once.
  const [designFill, setDesignFill] = useState<{ id: string; stitches: string; colours: string } | null>(null);
  const { register, control, reset, setValue } = useForm<JobFields>({ defaultValues: emptyJob });
  const values = useWatch({ control }) as JobFields;

  // A reopened quote fills the inputs once it arrives (and again if another is reopened);
  // leaving it for a new quote empties them. Worked out while rendering, so the design changes
  // in the same render; the form, which keeps its values outside React, is reset just after.
  const [fill, setFill] = useState<{ saved: typeof saved | undefined; quoteId: string; shownId: string; job: JobFields | null }>({
    saved: undefined,
    quoteId,
    shownId: '',
    job: null,
  });
  if (fill.saved !== saved || fill.quoteId !== quoteId) {
    if (saved) {
      setFill({ saved, quoteId, shownId: saved.id, job: fieldsOfJob(saved.job) });
      setDesignFill(null);
      setDesign(
        saved.design
          ? {
              fileName: saved.design.file_name,
              summary: saved.design.summary,
              preview: null,
              blocks: null,
              savedThreadM: saved.job.thread_m ?? null,
              library: saved.design.id ? { id: saved.design.id, etag: '' } : null,
            }
          : null,
      );
    } else if (!quoteId && fill.shownId) {
      setFill({ saved, quoteId, shownId: '', job: emptyJob });
      setDesign(null);
      setDesignFill(null);
    } else {
      setFill({ ...fill, saved, quoteId });
    }
  }
  useEffect(() => {
    if (fill.job) reset(fill.job);
  }, [fill.job, reset]);

  // A design of the library, once it arrives, is shown and fills the stitches and colours (the
  // rest of the job stays as typed); once per design chosen.
  const pickedItem = designId && picked.data?.design.id === designId ? picked.data.design : null;
  const pickedSummary = pickedItem ? summaryOf(pickedItem) : null;
  if (pickedItem && pickedSummary && designFill?.id !== pickedItem.id) {
    setDesignFill({
      id: pickedItem.id,
      stitches: String(pickedSummary.stitches),
      // The extra-colour fee charges for the threads the machine is set up with.
      colours: String(Math.max(1, pickedSummary.threads_needed ?? pickedSummary.colours)),
    });
    setDesign({
      fileName: fileNameOf(pickedItem.name),
      summary: pickedSummary,
      preview: null,
      blocks: pickedItem.design && 'blocks' in pickedItem.design ? (pickedItem.design.blocks ?? null) : null,
      library: { id: pickedItem.id, etag: pickedItem.etag },
    });
  }
  useEffect(() => {
    if (!designFill) return;
    setValue('stitches', designFill.stitches);
    setValue('colours', designFill.colours);
  }, [designFill, setValue]);
  const pickProblem = !designId
    ? null
    : picked.isError
      ? picked.error instanceof ApiError && picked.error.status === 404
        ? "That design is no longer in the team's library."
        : 'The design could not be loaded from the library.'
      : pickedItem && !pickedSummary
        ? 'That file of the library is not a design Bobbin can read.'
        : null;

  const defaults = useMemo(() => core.defaultRates(), [core]);
  const teamRates = useMemo(() => effectiveRates(defaults, settings), [defaults, settings]);
  // The price list an admin is editing prices the job before it is saved (a reopened quote keeps
  // its own rates). Kept only when it changes, so handing the same draft up re-renders nothing.
  const [draftRates, setDraftRates] = useState<Rates | null>(null);
  const onDraft = useCallback(
    (draft: Rates | null) => setDraftRates((previous) => (JSON.stringify(previous) === JSON.stringify(draft) ? previous : draft)),
    [],
  );
  const trying = !saved && draftRates !== null;
  const rates = saved ? saved.rates : (draftRates ?? teamRates);
  const currency = saved ? saved.currency : teamCurrency(settings);
  const savedMachine = saved?.job.machine ?? null;
  const machineList = machines.data ?? NO_MACHINES;

  // The thread one piece of the design takes by the team's thread-usage model, the figure a job's
  // run sheet counts from; it prices the thread while the stitches are the design's.
  const usageSetting = settings[THREAD_USAGE];
  const designThreadM = useMemo(() => {
    if (!design) return null;
    if (!design.blocks) return design.savedThreadM ?? null;
    try {
      return core.threadUsage(design.blocks, usageSetting).thread_m;
    } catch {
      return null;
    }
  }, [core, design, usageSetting]);
  const threadM = design && designThreadM && wholeNumber(values.stitches) === design.summary.stitches ? designThreadM : null;

  const { job, pricing } = useMemo((): { job: ReturnType<typeof jobOf>['job']; pricing: Pricing | null } => {
    const typed = jobOf(values, machineList, savedMachine, threadM);
    // Nothing to price until there is a stitch count (typed, or read from a file).
    if (values.stitches.trim() === '' && typed.problems.length === 0) return { job: typed.job, pricing: null };
    if (typed.problems.length > 0) return { job: typed.job, pricing: { problems: typed.problems } };
    try {
      return { job: typed.job, pricing: core.priceJob({ rates, job: typed.job, currency }) };
    } catch (failure) {
      // Inputs the core cannot even read: say so rather than break the page.
      const message = failure instanceof Error ? failure.message : String(failure);
      return { job: typed.job, pricing: { problems: [{ field: '', code: 'error', message }] } };
    }
  }, [core, values, machineList, savedMachine, threadM, rates, currency]);

  const problems: PriceProblem[] = pricing && 'problems' in pricing ? pricing.problems : [];
  const byField = problemsByField(problems);
  const elsewhere = problems.filter((problem) => !problem.field.startsWith('job.'));
  const quote = pricing && 'quote' in pricing ? pricing.quote : null;

  const readDesign = ({ fileName, file }: ReadDesign) => {
    // A file read here replaces a design of the library in the address too.
    if (designId) setParams({}, { replace: true });
    setDesignFill(null);
    setDesign({ fileName, summary: file.summary, preview: file.preview, blocks: file.blocks, library: null });
    setValue('stitches', String(file.summary.stitches));
    // The extra-colour fee charges for the threads the machine is set up with.
    setValue('colours', String(Math.max(1, file.summary.threads_needed ?? file.summary.colours)));
  };

  const designUnread = () => {
    setDesign(null);
    setValue('stitches', '');
    setValue('colours', emptyJob.colours);
  };

  const draft = quote
    ? {
        currency,
        rates,
        job,
        design: design ? savedDesignOf(design) : null,
        result: quote,
      }
    : null;

  return (
    <div className="pricing__layout">
      <section className="card pricing-section pricing-section--job" aria-labelledby={`${id}-job`}>
        <h2 id={`${id}-job`}>The job</h2>
        {quoteId ? (
          <div className="pricing-reopened" role="status">
            {saved ? (
              <p>
                Reopened <strong>{saved.name}</strong>. It uses the rates saved with the quote, not the current price list.{' '}
                <Link to={paths.pricingCalculator}>Start a new quote</Link>
                {saved.design?.id && canWriteQuotes(role) ? (
                  <>
                    {' · '}
                    <Link to={newJobPath(saved.design.id, { name: saved.name, quantity: saved.job.quantity })}>Make a job</Link>
                  </>
                ) : null}
              </p>
            ) : reopened.isError ? (
              <p>{reopened.error instanceof UnreadableQuote ? reopened.error.message : 'The saved quote could not be opened.'}</p>
            ) : teamId ? (
              <p>Opening the saved quote…</p>
            ) : (
              <p>Choose the team the quote belongs to, with the team switcher at the top of the page.</p>
            )}
          </div>
        ) : null}
        <DesignDrop onRead={readDesign} onFail={designUnread} />
        {teamId ? <LibraryPicker teamId={teamId} onPick={(id) => setParams({ design: id })} /> : null}
        {designId && !pickedItem && picked.isFetching ? <p role="status">Opening the design from the library…</p> : null}
        {pickProblem ? <p role="alert">{pickProblem}</p> : null}
        {design ? (
          <DesignView
            fileName={design.fileName}
            summary={design.summary}
            preview={design.preview}
            library={design.library}
            teamId={teamId}
            preferredLine={preferredLine(settings)}
          />
        ) : null}
        <JobInputs register={register} values={values} problems={byField} machines={machineList} savedMachine={savedMachine} />
        {teamId && machines.isError && !machines.data ? (
          <p className="muted">The team's machines could not be loaded; the price does not need them.</p>
        ) : null}
        {quote ? <PriceBar perPiece={quote.per_piece} total={quote.total} decimals={quote.decimals} currency={currency} /> : null}
      </section>

      <section className="card pricing-section pricing-section--result" aria-labelledby={`${id}-price`}>
        <h2 id={`${id}-price`}>Price</h2>
        {trying ? <p className="pricing-trying">Priced with the price list as edited below; save it to keep it.</p> : null}
        {quote ? <QuoteResult quote={quote} rates={rates} currency={currency} separate={job.one_off_fees === 'separate'} /> : null}
        {quote ? (
          <p className="muted pricing-thread">
            {threadM
              ? `Thread: ${formatLength(threadM, lengthUnit(usageSetting))} a piece, top and bobbin, from the design's stitches by the team's thread-usage model.`
              : `Thread: estimated from the stitch count at ${rates.thread_metres_per_thousand} m per 1,000 stitches.`}
          </p>
        ) : null}
        {!pricing ? <p className="muted">Type the stitch count, or drop the design file, to see the price.</p> : null}
        {pricing && !quote ? <p className="muted">Fix the inputs marked above to see the price.</p> : null}
        {elsewhere.length > 0 ? (
          <ul className="form-alert pricing-problems" role="alert">
            {elsewhere.map((problem) => (
              <li key={`${problem.field}-${problem.code}`}>
                {problem.field ? `Price list, ${rateLabel(problem.field)}: ` : ''}
                {problem.message}
              </li>
            ))}
          </ul>
        ) : null}
      </section>

      {teamId && canWriteQuotes(role) ? <SaveQuote teamId={teamId} draft={draft} /> : null}
      {teamId ? <SavedQuotes teamId={teamId} canWrite={canWriteQuotes(role)} openId={saved?.id ?? ''} /> : null}
      <PriceList
        core={core}
        rates={teamRates}
        currency={teamCurrency(settings)}
        editable={teamId !== '' && canEditRates(role)}
        saveSettings={saveSettings}
        onDraft={onDraft}
      />
    </div>
  );
}
