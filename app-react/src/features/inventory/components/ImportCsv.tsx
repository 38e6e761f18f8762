import { useId, useState } from 'react';

import { FormAlert, FormStatus } from '@/components/form';
import { counted } from '@/lib/text';

import { useImportThreads } from '../api/import-threads';
import { problemsOf } from '../errors';
import type { ImportResult } from '../types';

/**
 * A file to start from: the columns of an export (`bobbin_core::inventory::csv::COLUMNS`), a
 * catalogue thread and a custom one.
 */
export const TEMPLATE_CSV = [
  'line,code,name,colour,quantity,spool_length_m,location,reorder_point,cost_per_spool,notes',
  'madeira-polyneon,1800,,,4,1000,Shelf A,2,4.50,',
  ',,Fair gold,#C9A227,1,,Drawer 3,,,Metallic: a thread of no catalogue line',
].join('\n');

const TEMPLATE_HREF = `data:text/csv;charset=utf-8,${encodeURIComponent(`${TEMPLATE_CSV}\n`)}`;

/**
 * A CSV file checked first: its rows with their problems and warnings; then the import: every
 * row, or, when some have problems, the others alone (the skipped ones stay listed with why).
 */
export function ImportCsv({ teamId }: { teamId: string }) {
  const id = useId();
  const [csv, setCsv] = useState<string | null>(null);
  const [preview, setPreview] = useState<ImportResult | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const run = useImportThreads(teamId);

  const check = async (text: string) => {
    setAlert(null);
    setDone(null);
    setPreview(null);
    try {
      setPreview(await run.mutateAsync({ csv: text, commit: false }));
    } catch (error) {
      setAlert(problemsOf(error, [], 'The file could not be read.').alert);
    }
  };

  const choose = async (file: File | undefined) => {
    if (!file) return;
    const text = await file.text();
    setCsv(text);
    await check(text);
  };

  const commit = async (skipInvalid: boolean) => {
    if (csv === null) return;
    setAlert(null);
    try {
      const result = await run.mutateAsync({ csv, commit: true, skipInvalid });
      setCsv(null);
      const skipped = result.rows.filter((row) => row.problems.length > 0).map((row) => row.line);
      // The skipped rows stay listed, with their problems, to be fixed in the file.
      setPreview(skipped.length > 0 ? { ...result, rows: result.rows.filter((row) => row.problems.length > 0) } : null);
      setDone(
        `Imported: ${result.added} added, ${result.updated} updated.` +
          (skipped.length > 0 ? ` Skipped ${skipped.length === 1 ? 'row' : 'rows'} ${skipped.join(', ')}: see below.` : ''),
      );
    } catch (error) {
      setAlert(problemsOf(error, [], 'The import failed; nothing was written.').alert);
    }
  };

  const bad = preview?.rows.filter((row) => row.problems.length > 0).length ?? 0;
  const good = (preview?.rows.length ?? 0) - bad;
  return (
    <section className="card profile-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Import CSV</h2>
      <div className="field">
        <label htmlFor={`${id}-file`}>CSV file</label>
        <input
          id={`${id}-file`}
          type="file"
          accept=".csv,text/csv"
          aria-describedby={`${id}-hint`}
          onChange={(event) => {
            void choose(event.target.files?.[0]);
            // The same file chosen again (after fixing it) is read again.
            event.target.value = '';
          }}
        />
        <p id={`${id}-hint`} className="muted">
          The columns of an export. Nothing is written until you press Import.{' '}
          <a href={TEMPLATE_HREF} download="bobbin-threads-template.csv">
            Download a template CSV
          </a>
        </p>
      </div>
      {preview ? (
        <>
          <p role="status">
            {counted(preview.rows.length, 'row')}:{' '}
            {bad === 0
              ? 'all valid.'
              : `${bad} with problems: fix them in the file and choose it again${good > 0 && !preview.committed ? ', or import the others alone' : ''}.`}
            {preview.ignored_columns.length > 0 ? ` Ignored columns: ${preview.ignored_columns.join(', ')}.` : ''}
          </p>
          <div className="table-scroll" role="region" aria-label="Import preview" tabIndex={0}>
            <table className="bulk-table">
              <thead>
                <tr>
                  <th scope="col">Row</th>
                  <th scope="col">Line</th>
                  <th scope="col">Code</th>
                  <th scope="col">Name</th>
                  <th scope="col">Quantity</th>
                  <th scope="col">Result</th>
                </tr>
              </thead>
              <tbody>
                {preview.rows.map((row) => (
                  <tr key={row.line}>
                    <td>{row.line}</td>
                    <td>{row.thread_line}</td>
                    <td>{row.code}</td>
                    <td>{row.name}</td>
                    <td>{row.quantity}</td>
                    <td>
                      {row.problems.length > 0 ? (
                        <ul className="field__error">
                          {row.problems.map((problem) => (
                            <li key={`${problem.field}-${problem.code}`}>{problem.message}</li>
                          ))}
                        </ul>
                      ) : row.action === 'update' ? (
                        'Updates the entry'
                      ) : (
                        'Adds'
                      )}
                      {row.warnings.length > 0 ? (
                        <ul className="import-warnings">
                          {row.warnings.map((warning) => (
                            <li key={`${warning.field}-${warning.code}`}>{warning.message}</li>
                          ))}
                        </ul>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {preview.committed ? null : preview.valid ? (
            <button type="button" className="button button--primary" disabled={run.isPending} onClick={() => void commit(false)}>
              Import
            </button>
          ) : good > 0 ? (
            <button type="button" className="button button--primary" disabled={run.isPending} onClick={() => void commit(true)}>
              Import the {counted(good, 'good row')}, skip {bad}
            </button>
          ) : null}
        </>
      ) : null}
      <FormAlert message={alert} />
      <FormStatus message={done} />
    </section>
  );
}
