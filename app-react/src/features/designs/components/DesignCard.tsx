// One file of the library in the grid: its preview, its name (a link to its page), stitches, size
// and colours; for members and above, Rename (in place) and Remove (after a confirmation).
import { type SyntheticEvent, useId, useState } from 'react';
import { Link } from 'react-router';

import { ConfirmDialog } from '@/components/ConfirmDialog';
import { LibraryPreview } from '@/components/LibraryPreview';
import { designPath } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { type LibraryItem, fileNameOf, summaryOf } from '@/lib/design-library';

import { keyOf, useRemoveDesign, useRenameDesign } from '../api/files';
import { NOT_READABLE, PLAIN_FILE, coloursOf, formatBytes, formatCount, formatExtent } from '../format';

/** Swatches shown on a card at most; the rest are counted. */
const SWATCHES = 8;

export function DesignCard({ teamId, item, canWrite }: { teamId: string; item: LibraryItem; canWrite: boolean }) {
  const summary = summaryOf(item);
  const [renaming, setRenaming] = useState(false);
  return (
    <li className="card design-card">
      {/* The whole card opens the design: its name's link covers it (style: .design-card__name a). */}
      {summary ? (
        <LibraryPreview teamId={teamId} designId={item.id} etag={item.etag} name={item.name} size="sm" />
      ) : (
        <div className="library-preview library-preview--sm library-preview--none">
          <span>{item.design ? NOT_READABLE : PLAIN_FILE}</span>
        </div>
      )}
      {renaming ? (
        <RenameForm teamId={teamId} name={item.name} done={() => setRenaming(false)} />
      ) : (
        <h2 className="design-card__name">
          <Link to={designPath(item.id)}>{item.name}</Link>
        </h2>
      )}
      <p className="design-card__facts">
        {summary ? (
          <>
            <span>{formatCount(summary.stitches)} stitches</span>
            <span>{formatExtent(summary)}</span>
          </>
        ) : (
          <span className="muted">{item.design ? NOT_READABLE : PLAIN_FILE}</span>
        )}
        <span className="muted">{formatBytes(item.size)}</span>
      </p>
      {summary ? <Colours colours={coloursOf(summary)} blocks={summary.colours} /> : null}
      {canWrite && !renaming ? (
        <div className="design-card__actions">
          <button type="button" className="button" aria-label={`Rename ${item.name}`} onClick={() => setRenaming(true)}>
            Rename
          </button>
          <RemoveButton teamId={teamId} name={item.name} />
        </div>
      ) : null}
    </li>
  );
}

function Colours({ colours, blocks }: { colours: string[]; blocks: number }) {
  if (colours.length === 0)
    return (
      <p className="design-card__colours muted">
        {formatCount(blocks)} colour {blocks === 1 ? 'block' : 'blocks'}, colours not stored
      </p>
    );
  return (
    <p className="design-card__colours">
      <span className="visually-hidden">{`${colours.length} ${colours.length === 1 ? 'colour' : 'colours'}: `}</span>
      {colours.slice(0, SWATCHES).map((colour) => (
        <span key={colour} className="swatch swatch--sm" style={{ backgroundColor: colour }} title={colour} aria-hidden="true" />
      ))}
      {colours.length > SWATCHES ? (
        <span className="muted" aria-hidden="true">
          +{colours.length - SWATCHES}
        </span>
      ) : null}
      <span className="visually-hidden">{colours.join(', ')}</span>
    </p>
  );
}

export function RenameForm({ teamId, name, done }: { teamId: string; name: string; done: (renamedTo?: string) => void }) {
  const id = useId();
  const rename = useRenameDesign(teamId);
  // The file's own name is edited; a folder it is in stays.
  const folder = name.slice(0, name.length - fileNameOf(name).length);
  const [value, setValue] = useState(fileNameOf(name));
  const [error, setError] = useState<string | null>(null);
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    const to = folder + keyOf(value);
    if (value.trim() === '') {
      setError('Give the file a name.');
      return;
    }
    if (to === name) {
      done();
      return;
    }
    rename.mutate(
      { from: name, to },
      {
        onSuccess: () => done(to),
        onError: (failure) =>
          setError(
            failure instanceof ApiError && failure.status === 409
              ? `A file named "${to}" is already in the library.`
              : failure instanceof Error
                ? failure.message
                : 'The file could not be renamed.',
          ),
      },
    );
  };
  return (
    <form className="design-rename" onSubmit={submit}>
      <label htmlFor={`${id}-name`} className="visually-hidden">
        New name for {name}
      </label>
      <input
        id={`${id}-name`}
        value={value}
        maxLength={200}
        onChange={(event) => setValue(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        // Opened by the person's own click on Rename: where they will type.
        autoFocus
      />
      {error ? (
        <p id={`${id}-error`} className="field__error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="actions">
        <button type="submit" className="button button--primary" disabled={rename.isPending}>
          Save name
        </button>
        <button type="button" className="button" onClick={() => done()}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function RemoveButton({ teamId, name, onRemoved }: { teamId: string; name: string; onRemoved?: () => void }) {
  const remove = useRemoveDesign(teamId);
  const [confirming, setConfirming] = useState(false);
  return (
    <ConfirmDialog
      trigger={
        <button type="button" className="button" aria-label={`Remove ${name}`}>
          Remove
        </button>
      }
      title={`Remove "${name}"?`}
      confirmLabel="Remove"
      open={confirming}
      onOpenChange={setConfirming}
      busy={remove.isPending}
      onConfirm={() =>
        remove.mutate(name, {
          onSuccess: () => onRemoved?.(),
          onSettled: () => setConfirming(false),
        })
      }
    >
      <p>The file is removed from the team's library for everyone. Quotes priced from it keep their figures. This cannot be undone.</p>
    </ConfirmDialog>
  );
}
