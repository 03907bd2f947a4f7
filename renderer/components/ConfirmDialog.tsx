// A confirmation asked inside the page (no browser pop-up): what will happen, then Confirm or Cancel.
// Focus moves into it (on the button that backs out), Tab stays inside it, Escape backs out, and
// focus goes back to where it was (the button that opened it) when it closes.
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { Alert } from '../shell/Alert';

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Keeps Tab and Shift+Tab inside `box`: from the last element to the first and back. */
export function trapTab(event: KeyboardEvent, box: HTMLElement | null) {
  if (event.key !== 'Tab' || !box) return;
  const items = [...box.querySelectorAll<HTMLElement>(FOCUSABLE)];
  const first = items[0];
  const last = items[items.length - 1];
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

/** Focus goes back to the element focused before the dialog opened, once it closes. */
export function useReturnFocus() {
  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    return () => {
      // The opener may have gone (a deleted row): then focus stays where the page puts it.
      if (before?.isConnected) before.focus();
    };
  }, []);
}

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
  const box = useRef<HTMLDivElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  useReturnFocus();
  useEffect(() => cancel.current?.focus(), []);
  return (
    <div className="dialog-backdrop">
      <div
        ref={box}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className="dialog"
        onKeyDown={(event) => {
          if (event.key === 'Escape' && !props.busy) {
            event.stopPropagation();
            props.onCancel();
          }
          trapTab(event, box.current);
        }}
      >
        <h3 id={titleId}>{props.title}</h3>
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
      </div>
    </div>
  );
}
