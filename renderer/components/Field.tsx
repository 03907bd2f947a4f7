// A form field: its label, the control, a hint under it and the error that names what is wrong,
// both tied to the control (aria-describedby) so a screen reader says them with it.
import { cloneElement, useId, type ReactElement } from 'react';
import { Alert } from '../shell/Alert';

interface ControlProps {
  id?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
}

export function Field(props: { label: string; hint?: string; error?: string; children: ReactElement<ControlProps> }) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const described = [props.hint ? hintId : undefined, props.error ? errorId : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      {cloneElement(props.children, { id, 'aria-describedby': described, 'aria-invalid': props.error ? true : undefined })}
      {props.hint && (
        <span id={hintId} className="muted small">
          {props.hint}
        </span>
      )}
      {props.error && (
        <Alert look="field" as="span" id={errorId}>
          {props.error}
        </Alert>
      )}
    </div>
  );
}

/** A text field: `<Field>` around an `<input>`. */
export function TextField(props: { label: string; value: string; onChange: (value: string) => void; hint?: string; error?: string; placeholder?: string; required?: boolean }) {
  return (
    <Field label={props.label} hint={props.hint} error={props.error}>
      <input type="text" value={props.value} placeholder={props.placeholder} required={props.required} onChange={(e) => props.onChange(e.target.value)} />
    </Field>
  );
}

/** A choice among a few values: `<Field>` around a `<select>`. */
export function SelectField<V extends string>(props: { label: string; value: V; options: { value: V; label: string }[]; onChange: (value: V) => void; hint?: string; error?: string }) {
  return (
    <Field label={props.label} hint={props.hint} error={props.error}>
      <select value={props.value} onChange={(e) => props.onChange(props.options.find((o) => o.value === e.target.value)?.value ?? props.value)}>
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  );
}
