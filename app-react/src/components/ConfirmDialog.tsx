// A confirmation for actions that cannot be undone. The app's only door to the dialog library
// (Radix Dialog: a modal that traps focus, closes on Escape and gives focus back to the button
// that opened it), so swapping it is one file.
import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';

interface ConfirmDialogProps {
  /** The button that opens the dialog. */
  trigger: ReactNode;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The action is running: the confirm button waits. */
  busy?: boolean;
}

export function ConfirmDialog({ trigger, title, children, confirmLabel, onConfirm, open, onOpenChange, busy }: ConfirmDialogProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger asChild>{trigger}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog__overlay" />
        <Dialog.Content className="dialog card">
          <Dialog.Title className="dialog__title">{title}</Dialog.Title>
          <Dialog.Description asChild>
            <div className="dialog__body">{children}</div>
          </Dialog.Description>
          <div className="actions dialog__actions">
            <Dialog.Close asChild>
              <button type="button" className="button">
                Cancel
              </button>
            </Dialog.Close>
            <button type="button" className="button button--primary button--danger" onClick={onConfirm} disabled={busy}>
              {confirmLabel}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
