// The design file: dropped on the zone or chosen with its labelled input (a plain file input,
// so the keyboard and screen readers work as everywhere), read on this device by the core in a Web
// Worker, so the page keeps answering while a large file is read.
import { type DragEvent, useId, useRef, useState } from 'react';

import type { DesignFile } from '@/lib/core';
import { readDesignInWorker } from '@/lib/design-reader';

/** Points drawn in the preview at most: enough for a clear picture, cheap on a phone. */
export const PREVIEW_POINTS = 6000;

export const DESIGN_EXTENSIONS = '.dst,.pes,.jef,.exp,.vp3';

export interface ReadDesign {
  fileName: string;
  file: DesignFile;
}

export function DesignDrop({
  onRead,
  onFail,
}: {
  onRead: (design: ReadDesign) => void;
  /** The file could not be read: whatever the previous one showed must go. */
  onFail: () => void;
}) {
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const [reading, setReading] = useState<string | null>(null);
  // Files chosen one after another are read in turn; only the last one chosen is shown.
  const latest = useRef(0);

  const read = async (file: File | undefined) => {
    if (!file) return;
    const turn = ++latest.current;
    setError(null);
    setReading(file.name);
    try {
      const read = await readDesignInWorker(await file.arrayBuffer(), file.name, PREVIEW_POINTS);
      if (turn === latest.current) onRead({ fileName: file.name, file: read });
    } catch (failure) {
      if (turn !== latest.current) return;
      // The core's message is a sentence for a person ("This is not a DST file ...").
      setError(failure instanceof Error ? failure.message : 'The file could not be read.');
      onFail();
    } finally {
      if (turn === latest.current) setReading(null);
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
      {reading ? <p role="status">Reading {reading}…</p> : null}
      {error ? (
        <p id={`${id}-error`} className="form-alert" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
