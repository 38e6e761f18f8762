// The design file: dropped on the zone or chosen with its labelled input (a plain file input,
// so the keyboard and screen readers work as everywhere), read in the page by the core.
import { type DragEvent, useId, useState } from 'react';

import type { DesignFile, PricingCore } from '@/lib/core';

/** Points drawn in the preview at most: enough for a clear picture, cheap on a phone. */
export const PREVIEW_POINTS = 6000;

export const DESIGN_EXTENSIONS = '.dst,.pes,.jef,.exp,.vp3';

export interface ReadDesign {
  fileName: string;
  file: DesignFile;
}

export function DesignDrop({
  core,
  onRead,
  onFail,
}: {
  core: PricingCore;
  onRead: (design: ReadDesign) => void;
  /** The file could not be read: whatever the previous one showed must go. */
  onFail: () => void;
}) {
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const [busy, setBusy] = useState(false);

  const read = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    setBusy(true);
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      onRead({ fileName: file.name, file: core.readDesign(bytes, file.name, PREVIEW_POINTS) });
    } catch (failure) {
      // The core's message is a sentence for a person ("This is not a DST file ...").
      setError(failure instanceof Error ? failure.message : 'The file could not be read.');
      onFail();
    } finally {
      setBusy(false);
    }
  };

  const drop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setOver(false);
    void read(event.dataTransfer.files[0]);
  };

  return (
    <div
      className={over ? 'design-drop design-drop--over' : 'design-drop'}
      onDragOver={(event) => {
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
    >
      <label htmlFor={`${id}-file`} className="design-drop__label">
        Design file
      </label>
      <input
        id={`${id}-file`}
        type="file"
        accept={DESIGN_EXTENSIONS}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
        onChange={(event) => {
          void read(event.target.files?.[0]);
          // The same file chosen again (after a fix) reads again.
          event.target.value = '';
        }}
      />
      <p id={`${id}-hint`} className="muted">
        Drop a DST, PES, JEF, EXP or VP3 file here, or choose one. It is read on this device; nothing is uploaded.
      </p>
      {busy ? <p role="status">Reading the file…</p> : null}
      {error ? (
        <p id={`${id}-error`} className="form-alert" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
