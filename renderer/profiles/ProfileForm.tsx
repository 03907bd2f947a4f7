// The properties form, to create, clone and edit a profile. It edits a copy of the whole
// file, so fields the console does not know are kept. Errors show inline: from the same
// schema the core validates with, and from the server's answer.
import { useId, useMemo, useState, type FormEvent } from 'react';
import { useUnsavedChanges } from '../shell/unsaved';
import { SECRET_MASK, validateProperties } from '../../core/contract/profiles';
import { getPath, setPath, type Json } from './fields';
import { Alert } from '../shell/Alert';

type Kind = 'text' | 'password' | 'checkbox';
interface Field {
  path: string;
  label: string;
  kind: Kind;
  help?: string;
  /** An empty value removes the field instead of saving an empty string. */
  omitEmpty?: boolean;
}

const SECTIONS: { title: string; fields: Field[] }[] = [
  {
    title: 'Server',
    fields: [
      { path: 'id', label: 'Profile id', kind: 'text', help: "Letters, digits, '.', '_' or '-'" },
      { path: 'serverName', label: 'Server name', kind: 'text' },
      {
        path: 'processTasksOnStart',
        label: 'Work tasks at startup (processTasksOnStart)',
        kind: 'checkbox',
        help: 'Off for a disaster-recovery standby that must not work the task queue',
      },
    ],
  },
  {
    title: 'Database (mongoProps)',
    fields: [
      { path: 'mongoProps.url', label: 'MongoDB URL', kind: 'text', omitEmpty: true, help: 'Empty: the embedded store of this profile' },
      { path: 'mongoProps.db', label: 'Database', kind: 'text' },
      { path: 'mongoProps.credentials.user', label: 'User', kind: 'text' },
      { path: 'mongoProps.credentials.passwd', label: 'Password', kind: 'password' },
      { path: 'mongoProps.credentials.dbAuth', label: 'Authenticate to the database (dbAuth)', kind: 'checkbox' },
      { path: 'mongoProps.ssl.enabled', label: 'TLS (ssl.enabled)', kind: 'checkbox' },
      { path: 'mongoProps.ssl.acceptInvalidCerts', label: 'Accept invalid certificates', kind: 'checkbox' },
      { path: 'mongoProps.ssl.sslCA', label: 'CA file (ssl.sslCA)', kind: 'text' },
    ],
  },
  {
    title: 'Paths (pathProps)',
    fields: [
      { path: 'pathProps.description', label: 'Description', kind: 'text' },
      { path: 'pathProps.sdk_dir', label: 'SDK directory (sdk_dir)', kind: 'text' },
      { path: 'pathProps.encrypted', label: 'Store passwords encrypted (encrypted)', kind: 'checkbox' },
    ],
  },
];
const KNOWN_TOP = new Set(['id', 'serverName', 'processTasksOnStart', 'mongoProps', 'pathProps']);

export interface ProfileFormProps {
  initial: Json;
  mode: 'create' | 'edit';
  /** Whether a password is stored behind the mask. */
  passwdSet?: boolean;
  submitLabel: string;
  busy?: boolean;
  /** Field path → message from the server's last answer. */
  serverErrors?: Record<string, string>;
  serverMessage?: string;
  onSubmit: (draft: Json) => void;
  onCancel?: () => void;
}

export function ProfileForm(props: ProfileFormProps) {
  const formId = useId();
  const [draft, setDraft] = useState<Json>(props.initial);
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [dirtyServerPaths, setDirtyServerPaths] = useState<Set<string>>(new Set());

  // What was last sent counts as saved: a page that moves on after the save is not held back.
  const [sent, setSent] = useState<string>();
  const dirty = useMemo(() => {
    const text = JSON.stringify(draft);
    return text !== JSON.stringify(props.initial) && text !== sent;
  }, [draft, props.initial, sent]);
  useUnsavedChanges(dirty, 'the profile form');
  const check = useMemo(() => validateProperties(draft), [draft]);
  const clientErrors = check.ok ? {} : Object.fromEntries(check.issues.map((i) => [i.path, i.message]));
  const errorOf = (path: string): string | undefined => {
    if ((touched.has(path) || submitted) && clientErrors[path]) return clientErrors[path];
    if (!dirtyServerPaths.has(path)) return props.serverErrors?.[path];
    return undefined;
  };
  const shownPaths = new Set(SECTIONS.flatMap((s) => s.fields.map((f) => f.path)));
  const otherErrors = [
    ...Object.entries(submitted ? clientErrors : {}),
    ...Object.entries(props.serverErrors ?? {}).filter(([p]) => !dirtyServerPaths.has(p)),
  ].filter(([path]) => !shownPaths.has(path));
  const unknownFields = Object.keys(draft).filter((key) => !KNOWN_TOP.has(key));

  const change = (field: Field, value: unknown) => {
    const next = field.omitEmpty && value === '' ? undefined : value;
    setDraft((current) => setPath(current, field.path, next));
    setTouched((current) => new Set(current).add(field.path));
    setDirtyServerPaths((current) => new Set(current).add(field.path));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setDirtyServerPaths(new Set());
    if (check.ok) {
      setSent(JSON.stringify(draft));
      props.onSubmit(draft);
    }
  };

  return (
    <form className="profile-form" aria-label="Profile properties" onSubmit={submit} noValidate>
      {SECTIONS.map((section) => (
        <fieldset key={section.title}>
          <legend>{section.title}</legend>
          {section.fields.map((field) => {
            const id = `${formId}-${field.path}`;
            const error = errorOf(field.path);
            const value = getPath(draft, field.path);
            const describedBy = [error && `${id}-error`, field.help && `${id}-help`].filter(Boolean).join(' ') || undefined;
            const readOnly = field.path === 'id' && props.mode === 'edit';
            return (
              <div className={`field field-${field.kind}`} key={field.path}>
                {field.kind === 'checkbox' ? (
                  <label>
                    <input
                      id={id}
                      type="checkbox"
                      checked={value === true}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={describedBy}
                      onChange={(event) => change(field, event.target.checked)}
                    />{' '}
                    {field.label}
                  </label>
                ) : (
                  <>
                    <label htmlFor={id}>{field.label}</label>
                    <input
                      id={id}
                      type={field.kind}
                      value={typeof value === 'string' ? value : value === undefined ? '' : String(value)}
                      readOnly={readOnly}
                      autoComplete={field.kind === 'password' ? 'new-password' : 'off'}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={describedBy}
                      onChange={(event) => change(field, event.target.value)}
                      onBlur={() => setTouched((current) => new Set(current).add(field.path))}
                    />
                  </>
                )}
                {field.kind === 'password' && props.passwdSet && value === SECRET_MASK && (
                  <span className="muted field-help">A password is stored; it is never shown. Type a new one to replace it.</span>
                )}
                {field.help && (
                  <span id={`${id}-help`} className="muted field-help">
                    {readOnly ? 'The id of a profile cannot change: clone it instead' : field.help}
                  </span>
                )}
                {error && (
                  <Alert look="field" as="span" id={`${id}-error`}>
                    {error}
                  </Alert>
                )}
              </div>
            );
          })}
        </fieldset>
      ))}
      {unknownFields.length > 0 && (
        <p className="muted">
          Other fields of this file, kept as they are (edit them in Raw JSON): {unknownFields.map((k) => <code key={k}>{k} </code>)}
        </p>
      )}
      {otherErrors.length > 0 && (
        <ul className="error" aria-label="Other errors">
          {otherErrors.map(([path, message]) => (
            <li key={path}>
              {path}: {message}
            </li>
          ))}
        </ul>
      )}
      {props.serverMessage && (
        <Alert>
          {props.serverMessage}
        </Alert>
      )}
      <div className="form-actions sticky-actions">
        <button type="submit" className="primary" disabled={props.busy}>
          {props.busy && <span className="spinner" aria-hidden />} {props.submitLabel}
        </button>
        {props.onCancel && (
          <button type="button" onClick={props.onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
