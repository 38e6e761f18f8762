import { useState } from 'react';

import { ConfirmDialog } from '@/components/ConfirmDialog';

/** A removal that cannot be undone, asked once more in a dialog before `onConfirm` runs. */
export function RemoveButton({
  label,
  title,
  children,
  busy,
  onConfirm,
}: {
  label: string;
  title: string;
  children: React.ReactNode;
  busy: boolean;
  onConfirm: () => Promise<void>;
}) {
  const [open, setOpen] = useState(false);
  return (
    <ConfirmDialog
      trigger={
        <button type="button" className="button">
          {label}
        </button>
      }
      title={title}
      confirmLabel={label}
      open={open}
      onOpenChange={setOpen}
      busy={busy}
      onConfirm={() => {
        void onConfirm().finally(() => setOpen(false));
      }}
    >
      {children}
    </ConfirmDialog>
  );
}
