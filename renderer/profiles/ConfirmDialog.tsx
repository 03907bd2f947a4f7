// A confirmation asked inside the page (no browser pop-up): what will happen, then Confirm or Cancel.
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Alert } from '../shell/Alert';

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
  const titleId = useId();
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <div className="dialog-backdrop">
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className="dialog"
        onKeyDown={(event) => event.key === 'Escape' && props.onCancel()}
      >
        <h3 id={titleId}>{props.title}</h3>
        <div>{props.children}</div>
        {props.error && (
          <Alert>
            {props.error}
          </Alert>
        )}
        <div className="dialog-actions">
          <button ref={cancel} onClick={props.onCancel} disabled={props.busy}>
            {props.cancelLabel ?? 'Cancel'}
          </button>
          <button className={props.danger ? 'danger' : 'primary'} onClick={props.onConfirm} disabled={props.busy}>
            {props.busy && <span className="spinner" aria-hidden />} {props.confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
