// Adding files to the library: dropped on the zone or chosen with its labelled input (several at
// once), sent two at a time, each with its own progress bar and, when refused, the server's
// reason in words. A file whose name is taken is kept as "name (2).ext".
import { useQueryClient } from '@tanstack/react-query';
import { type DragEvent, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';

import { designPath } from '@/config/paths';
import { libraryChanged } from '@/lib/design-library';

import { uploadDesign } from '../api/files';
import { formatBytes } from '../format';

const AT_ONCE = 2;

interface Upload {
  id: number;
  name: string;
  size: number;
  /** 0 to 1. */
  sent: number;
  state: 'waiting' | 'sending' | 'done' | 'failed';
  error?: string;
  /** The stored file's id and key, once done. */
  stored?: { id: string; key: string };
}

export function Uploads({ teamId, maxBytes, online }: { teamId: string; maxBytes: number | null; online: boolean }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [over, setOver] = useState(false);
  const next = useRef(0);
  // Each file keeps the team it was dropped for, whatever the page shows when its turn comes.
  const queue = useRef<{ upload: Upload; file: File; teamId: string }[]>([]);
  const running = useRef(0);
  // Leaving the page stops the uploads under way and forgets those waiting.
  const stop = useRef(new AbortController());
  useEffect(() => {
    const controller = new AbortController();
    stop.current = controller;
    return () => {
      controller.abort();
      queue.current = [];
    };
  }, []);

  const change = (uploadId: number, update: Partial<Upload>) =>
    setUploads((all) => all.map((upload) => (upload.id === uploadId ? { ...upload, ...update } : upload)));

  const pump = () => {
    while (running.current < AT_ONCE) {
      const turn = queue.current.shift();
      if (!turn) return;
      const { upload, file, teamId: team } = turn;
      running.current += 1;
      change(upload.id, { state: 'sending' });
      uploadDesign(team, file, (sent) => change(upload.id, { sent }), stop.current.signal)
        .then((stored) => {
          const key = stored.Key.slice(stored.Key.indexOf('/') + 1);
          change(upload.id, { state: 'done', sent: 1, stored: { id: stored.Id, key } });
        })
        .catch((error: unknown) =>
          change(upload.id, { state: 'failed', error: error instanceof Error ? error.message : 'The file could not be uploaded.' }),
        )
        .finally(() => {
          running.current -= 1;
          void libraryChanged(queryClient, team);
          pump();
        });
    }
  };

  const add = (files: FileList | null) => {
    if (!files || files.length === 0) return;
    const added: Upload[] = [];
    for (const file of Array.from(files)) {
      const upload: Upload = { id: ++next.current, name: file.name, size: file.size, sent: 0, state: 'waiting' };
      if (maxBytes !== null && file.size > maxBytes) {
        added.push({
          ...upload,
          state: 'failed',
          error: `This file is ${formatBytes(file.size)}; the library takes files up to ${formatBytes(maxBytes)}.`,
        });
        continue;
      }
      added.push(upload);
      queue.current.push({ upload, file, teamId });
    }
    setUploads((all) => [...added, ...all.filter((upload) => upload.state === 'waiting' || upload.state === 'sending')]);
    pump();
  };

  const drop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setOver(false);
    if (online) add(event.dataTransfer.files);
  };

  return (
    <section className="card designs-upload" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Add designs</h2>
      <div
        className={over ? 'design-drop design-drop--over' : 'design-drop'}
        onDragOver={(event) => {
          event.preventDefault();
          event.dataTransfer.dropEffect = online ? 'copy' : 'none';
          setOver(online);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
      >
        <label htmlFor={`${id}-files`} className="design-drop__label">
          Design files
        </label>
        <input
          id={`${id}-files`}
          type="file"
          multiple
          disabled={!online}
          aria-describedby={`${id}-hint`}
          onChange={(event) => {
            add(event.target.files);
            event.target.value = '';
          }}
        />
        <p id={`${id}-hint`} className="muted">
          {online
            ? `Drop files here, or choose several at once. DST, PES, JEF, EXP and VP3 designs get a preview and their figures; other files (the digitiser's notes, say) are kept as they are.${maxBytes ? ` Up to ${formatBytes(maxBytes)} a file.` : ''}`
            : 'Uploading needs a connection: the library is read-only while this device is offline.'}
        </p>
      </div>
      <p className="visually-hidden" role="status">
        {summaryOf(uploads)}
      </p>
      {uploads.length > 0 ? (
        <ul className="designs-upload__list" aria-label="Uploads">
          {uploads.map((upload) => (
            <li key={upload.id} className={`designs-upload__item designs-upload__item--${upload.state}`}>
              <span className="designs-upload__name">
                {upload.stored ? <Link to={designPath(upload.stored.id)}>{upload.stored.key}</Link> : upload.name}
              </span>
              <progress max={1} value={upload.sent} aria-label={`Upload of ${upload.name}`} />
              <span className="designs-upload__state" role={upload.state === 'failed' ? 'alert' : undefined}>
                {upload.state === 'waiting'
                  ? 'Waiting'
                  : upload.state === 'sending'
                    ? `${Math.round(upload.sent * 100)}%`
                    : upload.state === 'done'
                      ? upload.stored && upload.stored.key !== upload.name
                        ? `Added as ${upload.stored.key}`
                        : 'Added'
                      : upload.error}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** What a screen reader hears as the uploads go: how many are under way, then how many were added. */
function summaryOf(uploads: Upload[]): string {
  if (uploads.length === 0) return '';
  const done = uploads.filter((upload) => upload.state === 'done').length;
  const failed = uploads.filter((upload) => upload.state === 'failed').length;
  const left = uploads.length - done - failed;
  if (left > 0) return `Uploading: ${done} of ${uploads.length} added.`;
  return `${done} of ${uploads.length} ${uploads.length === 1 ? 'file' : 'files'} added${failed > 0 ? `, ${failed} refused` : ''}.`;
}
