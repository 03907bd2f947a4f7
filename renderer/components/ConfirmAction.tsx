// One destructive action that asks first: a button that opens a confirmation naming what
// will happen; nothing is done until the operator confirms. Escape or the back-out button
// closes it with nothing done and focus back on the button. After it is done, a short
// result line says what happened (and how to undo it where that is cheap).
import { useState, type ReactNode } from 'react';
import { useMutation } from '@tanstack/react-query';
import { ConfirmDialog } from './ConfirmDialog';

export interface ConfirmActionProps<T> {
  /** The button's text (what the operator clicks first). */
  label: ReactNode;
  /** The button's accessible name, where its text alone would be ambiguous on the page. */
  ariaLabel?: string;
  /** The button's classes (`danger`, `link`). */
  className?: string;
  disabled?: boolean;
  /** The question, naming the thing acted on: "Cancel job 65a…?". */
  title: string;
  /** What will happen, in a sentence or two. */
  children: ReactNode;
  /** The confirming button's text, naming the action again ("Cancel job"). */
  confirmLabel: string;
  /** The back-out button's text (default "Back"). */
  cancelLabel?: string;
  /** Red confirming button (the default); false for an action that is easily undone. */
  danger?: boolean;
  /** Does it; a rejection is shown in the dialog, which stays open. */
  action: () => Promise<T>;
  /** Runs after it is done (refresh what changed, leave a deleted item's page). */
  onDone?: (result: T) => void;
  /** The result line shown after it is done; none when omitted. */
  done?: (result: T) => ReactNode;
}

export function ConfirmAction<T>(props: ConfirmActionProps<T>) {
  const [asking, setAsking] = useState(false);
  const [result, setResult] = useState<{ value: T }>();
  const run = useMutation({
    mutationFn: props.action,
    onSuccess: (value) => {
      setAsking(false);
      setResult({ value });
      props.onDone?.(value);
    },
  });
  const said = result && props.done?.(result.value);
  return (
    <>
      <button
        type="button"
        className={props.className}
        aria-label={props.ariaLabel}
        aria-haspopup="dialog"
        disabled={props.disabled || run.isPending}
        onClick={() => {
          run.reset();
          setResult(undefined);
          setAsking(true);
        }}
      >
        {props.label}
      </button>
      {said && (
        <span role="status" className="action-result small">
          {said}{' '}
          <button type="button" className="link" onClick={() => setResult(undefined)}>
            Dismiss
          </button>
        </span>
      )}
      {asking && (
        <ConfirmDialog
          title={props.title}
          confirmLabel={props.confirmLabel}
          cancelLabel={props.cancelLabel ?? 'Back'}
          danger={props.danger ?? true}
          busy={run.isPending}
          error={run.isError ? run.error.message : undefined}
          onConfirm={() => run.mutate()}
          onCancel={() => setAsking(false)}
        >
          {props.children}
        </ConfirmDialog>
      )}
    </>
  );
}
