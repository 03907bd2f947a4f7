// A form generated from an adapter package's propertiesSchema.json: a field per property
// (checkbox, select for enums, number, text, password for secrets), a fieldset per object, JSON
// for arrays and anything else. Properties the schema does not describe are kept as they are.
// `stub` comes first, so the switch between a live system and mock data is always in view.
import { useState } from 'react';
import { Alert } from '../shell/Alert';

type Json = Record<string, unknown>;
type Schema = { type?: string | string[]; title?: string; properties?: Record<string, Schema>; required?: string[]; enum?: unknown[]; description?: string; default?: unknown; items?: Schema };

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const SECRET = /pass(word|wd)?|secret|token|api[_-]?key/i;
/** The one type of a field; a union of several (`["array", "object", "string"]`) is edited as JSON or text. */
const typeOf = (schema: Schema) => {
  if (!Array.isArray(schema.type)) return schema.type;
  const types = schema.type.filter((t) => t !== 'null');
  return types.length === 1 ? types[0] : undefined;
};
/** Whether a plain string is a value the schema accepts (no type, or a union with string). */
const takesText = (schema: Schema) => schema.type === undefined || (Array.isArray(schema.type) && schema.type.includes('string'));
const requiredOf = (schema: Schema) => new Set(Array.isArray(schema.required) ? schema.required : []);

/** The required fields left empty, by property path (`authentication.password`), checked down nested objects. */
export function missingRequired(schema: Json, value: Json, path: string[] = []): Record<string, string> {
  const s = schema as Schema;
  const out: Record<string, string> = {};
  const empty = (v: unknown) => v === undefined || v === '' || v === null;
  // In the order the schema lists them as required, then inside the nested objects given.
  for (const key of requiredOf(s)) if (empty(value[key])) out[[...path, key].join('.')] = 'required';
  for (const [key, child] of Object.entries(s.properties ?? {})) {
    const v = value[key];
    if (typeOf(child) === 'object' && child.properties && isObject(v)) Object.assign(out, missingRequired(child as Json, v, [...path, key]));
  }
  return out;
}

export function setAt(value: Json, path: string[], next: unknown): Json {
  const [head, ...rest] = path as [string, ...string[]];
  if (rest.length === 0) return { ...value, [head]: next };
  return { ...value, [head]: setAt(isObject(value[head]) ? (value[head]) : {}, rest, next) };
}

export interface SchemaFormProps {
  schema: Json;
  value: Json;
  onChange(next: Json): void;
  /** Field errors by property path (`authentication.password`). */
  errors?: Record<string, string>;
  /** How fields are labelled: by property name (adapter properties), or by the schema's `title` where it has one (JSON forms). */
  labels?: 'name' | 'title';
}

export function SchemaForm({ schema, value, onChange, errors = {}, labels = 'name' }: SchemaFormProps) {
  const properties = (schema as Schema).properties ?? {};
  const required = requiredOf(schema);
  const keys = Object.keys(properties).sort((a, b) => (a === 'stub' ? -1 : b === 'stub' ? 1 : 0));
  return (
    <div className="schema-form">
      {keys.map((key) => (
        <Field
          key={key}
          name={key}
          path={[key]}
          schema={properties[key] ?? {}}
          required={required.has(key)}
          value={value[key]}
          errors={errors}
          labels={labels}
          onChange={(next) => onChange({ ...value, [key]: next })}
        />
      ))}
    </div>
  );
}

function Field({
  name,
  path,
  schema,
  required,
  value,
  onChange,
  errors,
  labels,
}: {
  name: string;
  path: string[];
  schema: Schema;
  required: boolean;
  value: unknown;
  onChange(next: unknown): void;
  errors: Record<string, string>;
  labels: 'name' | 'title';
}) {
  const id = `prop-${path.join('-')}`;
  const label = labels === 'title' && schema.title ? schema.title : name;
  const error = errors[path.join('.')];
  const type = typeOf(schema);
  const help = schema.description ? <span className="muted small"> {schema.description}</span> : null;
  const problem = error ? (
    <Alert as="div" className="small field-error" id={`${id}-error`}>
      {labels === 'title' ? label : path.join('.')}: {error}
    </Alert>
  ) : null;
  const mark = required ? (
    <span className="required-mark" aria-hidden="true">
      {' '}
      *
    </span>
  ) : null;
  const a11y = { 'aria-required': required || undefined, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? `${id}-error` : undefined };
  if (type === 'object' && schema.properties) {
    const object = isObject(value) ? value : {};
    return (
      <fieldset className="schema-object">
        <legend>
          {label}
          {mark}
        </legend>
        {help}
        {Object.entries(schema.properties).map(([key, child]) => (
          <Field
            key={key}
            name={key}
            path={[...path, key]}
            schema={child}
            required={requiredOf(schema).has(key)}
            value={object[key]}
            errors={errors}
            labels={labels}
            onChange={(next) => onChange({ ...object, [key]: next })}
          />
        ))}
        {problem}
      </fieldset>
    );
  }
  let input;
  if (type === 'boolean') {
    input = <input id={id} {...a11y} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />;
  } else if (schema.enum && schema.enum.length > 0) {
    // An empty enum is a pick list bound to data the console does not have: a text field instead.
    input = (
      <select id={id} {...a11y} value={value === undefined ? '' : String(value)} onChange={(e) => onChange(schema.enum!.find((v) => String(v) === e.target.value))}>
        {value === undefined && <option value="">(default{schema.default !== undefined ? `: ${String(schema.default)}` : ''})</option>}
        {schema.enum.map((v) => (
          <option key={String(v)} value={String(v)}>
            {String(v)}
          </option>
        ))}
      </select>
    );
  } else if (type === 'integer' || type === 'number') {
    input = (
      <input
        id={id}
        {...a11y}
        type="number"
        value={typeof value === 'number' ? value : value === undefined ? '' : String(value)}
        placeholder={schema.default !== undefined ? String(schema.default) : undefined}
        onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))}
      />
    );
  } else if (type === 'string') {
    input = (
      <input
        id={id}
        {...a11y}
        type={SECRET.test(name) ? 'password' : 'text'}
        value={typeof value === 'string' ? value : value === undefined ? '' : String(value)}
        placeholder={schema.default !== undefined ? String(schema.default) : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  } else {
    input = <JsonField id={id} a11y={a11y} value={value} takesText={takesText(schema)} onChange={onChange} />;
  }
  return (
    <div className={type === 'boolean' ? 'schema-field schema-check' : 'schema-field'}>
      {/* The asterisk sits beside the label, not in it: the field's name stays its title; aria-required says it. */}
      <label htmlFor={id}>{label}</label>
      {mark} {input}
      {help}
      {problem}
    </div>
  );
}

/**
 * Arrays, untyped values and unions as JSON text; the value changes once the text parses. Where the
 * schema accepts a string too (`adapterId`: any type), text that is not JSON is that string.
 */
function JsonField({ id, a11y, value, takesText, onChange }: { id: string; a11y: Record<string, unknown>; value: unknown; takesText: boolean; onChange(next: unknown): void }) {
  const [text, setText] = useState(() => (value === undefined ? '' : typeof value === 'string' && takesText ? value : JSON.stringify(value, null, 2)));
  const [bad, setBad] = useState<string>();
  return (
    <>
      <textarea
        id={id}
        {...a11y}
        rows={Math.min(8, Math.max(2, text.split('\n').length))}
        value={text}
        placeholder={takesText ? 'text, or JSON' : 'JSON'}
        onChange={(e) => {
          setText(e.target.value);
          if (e.target.value.trim() === '') return (setBad(undefined), onChange(undefined));
          try {
            onChange(JSON.parse(e.target.value));
            setBad(undefined);
          } catch (error) {
            if (takesText) {
              setBad(undefined);
              onChange(e.target.value);
            } else setBad(error instanceof Error ? error.message : String(error));
          }
        }}
      />
      {bad && <div className="error small">not JSON yet: {bad}</div>}
    </>
  );
}
