// A confirmation asked inside the page (no browser pop-up): what will happen, then Confirm or Cancel.
// Modal for the keyboard too: focus starts on Cancel, Tab stays inside, and closing gives focus back
// to the button that opened it.
import { useId, useRef, type ReactNode } from 'react';
import { Alert } from '../shell/Alert';
import { trapTab, useFocusInside } from '../shell/focus';

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
  const dialog = useRef<HTMLDivElement>(null);
  useFocusInside(dialog, cancel);
  return (
    <div className="dialog-backdrop">
      <div
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className="dialog"
        onKeyDown={(event) => {
          if (event.key === 'Escape') props.onCancel();
          else trapTab(event);
        }}
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
