import { useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';

import type { BulkConversion, BulkRequest, Converter, LineSummary } from '@/lib/core';

import { MatchBadge } from './MatchBadge';
import { Swatch } from './Swatch';
import { formatDeltaE } from '../labels';

interface BulkFields {
  /** The line the codes are from; '' for hex colours only. */
  from: string;
  to: string;
  input: string;
}

interface Props {
  converter: Converter;
  lines: LineSummary[];
  defaultTo: string;
}

/** Convert a pasted list (codes of one line, hex colours, or rows copied from a spreadsheet). */
export function BulkConvert({ converter, lines, defaultTo }: Props) {
  const ids = { from: useId(), to: useId(), input: useId() };
  const { register, handleSubmit, control } = useForm<BulkFields>({ defaultValues: { from: '', to: defaultTo, input: '' } });
  const input = useWatch({ control, name: 'input' });
  // The last conversion, which the table and the download show.
  const [result, setResult] = useState<{ request: BulkRequest; conversion: BulkConversion } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const convert = handleSubmit(({ from, to, input }) => {
    const request: BulkRequest = { from: from || null, to, input, alternatives: 2 };
    try {
      setResult({ request, conversion: converter.convertBulk(request) });
      setError(null);
    } catch (thrown) {
      setResult(null);
      setError(thrown instanceof Error ? thrown.message : String(thrown));
    }
  });

  function download() {
    if (!result) return;
    const csv = converter.convertBulkCsv(result.request);
    const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `bobbin-to-${result.conversion.line}.csv`;
    link.click();
    URL.revokeObjectURL(url);
  }

  const converted = result?.conversion.rows.filter((row) => !row.error).length ?? 0;
  return (
    <form className="bulk" onSubmit={convert} aria-describedby={error ? `${ids.input}-error` : undefined}>
      <div className="field-row">
        <div className="field">
          <label htmlFor={ids.from}>Codes are from</label>
          <select id={ids.from} {...register('from')}>
            <option value="">Hex colours only</option>
            {lines.map((line) => (
              <option key={line.id} value={line.id}>
                {line.display_name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.to}>Convert to</label>
          <select id={ids.to} {...register('to')}>
            {lines
              .filter((line) => line.kind === 'thread')
              .map((line) => (
                <option key={line.id} value={line.id}>
                  {line.display_name}
                </option>
              ))}
          </select>
        </div>
      </div>
      <div className="field">
        <label htmlFor={ids.input}>List</label>
        <textarea
          id={ids.input}
          rows={6}
          spellCheck={false}
          placeholder={'One code or #hex colour per line, or rows pasted from a spreadsheet:\n0015\n1902\n#1F3A93'}
          {...register('input')}
        />
      </div>
      {error && (
        <p id={`${ids.input}-error`} className="field__error" role="alert">
          {error}
        </p>
      )}
      <div className="actions">
        <button type="submit" className="button button--primary" disabled={!input.trim()}>
          Convert list
        </button>
        {result && (
          <button type="button" className="button" onClick={download}>
            Download CSV
          </button>
        )}
      </div>
      {result && (
        <>
          <p role="status" className="muted">
            {converted} of {result.conversion.rows.length} rows converted to {result.conversion.line_name}.
          </p>
          <div className="table-scroll">
            <table className="bulk-table">
              <caption className="visually-hidden">List converted to {result.conversion.line_name}</caption>
              <thead>
                <tr>
                  <th scope="col">Row</th>
                  <th scope="col">From</th>
                  <th scope="col">Best match</th>
                  <th scope="col">Closeness</th>
                  <th scope="col">Alternatives</th>
                </tr>
              </thead>
              <tbody>
                {result.conversion.rows.map((row) => {
                  const [best, ...alternatives] = row.matches;
                  const thread = row.source?.thread;
                  return (
                    <tr key={row.row}>
                      <td>{row.row}</td>
                      <td>
                        {row.source && <Swatch hex={row.source.hex} size="sm" />} {thread ? `${thread.code} ${thread.name}` : row.input}
                      </td>
                      {row.error || !best ? (
                        <td colSpan={3} className="field__error">
                          {row.error ?? 'No match.'}
                        </td>
                      ) : (
                        <>
                          <td>
                            <Swatch hex={best.thread.hex} size="sm" /> {best.thread.code} {best.thread.name}
                          </td>
                          <td>
                            <MatchBadge label={best.label} deltaE={best.delta_e} />
                          </td>
                          <td className="bulk-table__alternatives">
                            {alternatives.map((m) => `${m.thread.code} (ΔE ${formatDeltaE(m.delta_e)})`).join(', ')}
                          </td>
                        </>
                      )}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </>
      )}
    </form>
  );
}
