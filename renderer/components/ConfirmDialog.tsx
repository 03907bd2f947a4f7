// A confirmation asked inside the page (no browser pop-up): what will happen, then Confirm or Cancel.
// Focus moves into it (on the button that backs out), Tab stays inside it, Escape backs out, and
// focus goes back to where it was (the button that opened it) when it closes.
import { useRef, type ReactNode } from 'react';
import { Alert } from '../shell/Alert';
import { Dialog } from './Dialog';

export function ConfirmDialog(props: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** The label of the button that backs out (default Cancel). */
  cancelLabel?: string;
  danger?: boolean;
  busy?: boolean;
  error?: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const cancel = useRef<HTMLButtonElement>(null);
  return (
    <Dialog title={props.title} onClose={props.onCancel} initial={cancel} busy={props.busy}>
      <div>{props.children}</div>
      {props.error && <Alert>{props.error}</Alert>}
      <div className="dialog-actions">
        <button ref={cancel} type="button" onClick={props.onCancel} disabled={props.busy}>
          {props.cancelLabel ?? 'Cancel'}
        </button>
        <button type="button" className={props.danger ? 'danger' : 'primary'} onClick={props.onConfirm} disabled={props.busy}>
          {props.busy && <span className="spinner" aria-hidden />} {props.confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
