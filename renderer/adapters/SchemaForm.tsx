// A form generated from an adapter package's propertiesSchema.json: a field per property
// (checkbox, select for enums, number, text, password for secrets), a fieldset per object, JSON
// for arrays and anything else. Properties the schema does not describe are kept as they are.
// `stub` comes first, so the switch between a live system and mock data is always in view.
import { useState } from 'react';
import { Alert } from '../shell/Alert';

type Json = Record<string, unknown>;
type Schema = { type?: string | string[]; title?: string; properties?: Record<string, Schema>; enum?: unknown[]; description?: string; default?: unknown; items?: Schema };

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const SECRET = /pass(word|wd)?|secret|token|api[_-]?key/i;
const typeOf = (schema: Schema) => (Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type);

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
  const properties = ((schema as Schema).properties ?? {});
  const keys = Object.keys(properties).sort((a, b) => (a === 'stub' ? -1 : b === 'stub' ? 1 : 0));
  return (
    <div className="schema-form">
      {keys.map((key) => (
        <Field key={key} name={key} path={[key]} schema={properties[key]!} value={value[key]} errors={errors} labels={labels} onChange={(next) => onChange({ ...value, [key]: next })} />
      ))}
    </div>
  );
}

function Field({
  name,
  path,
  schema,
  value,
  onChange,
  errors,
  labels,
}: {
  name: string;
  path: string[];
  schema: Schema;
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
    <Alert as="div" className="small">
      {path.join('.')}: {error}
    </Alert>
  ) : null;
  if (type === 'object' && schema.properties) {
    const object = isObject(value) ? value : {};
    return (
      <fieldset className="schema-object">
        <legend>{label}</legend>
        {help}
        {Object.entries(schema.properties).map(([key, child]) => (
          <Field key={key} name={key} path={[...path, key]} schema={child} value={object[key]} errors={errors} labels={labels} onChange={(next) => onChange({ ...object, [key]: next })} />
        ))}
        {problem}
      </fieldset>
    );
  }
  let input;
  if (type === 'boolean') {
    input = <input id={id} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />;
  } else if (schema.enum && schema.enum.length > 0) {
    // An empty enum is a pick list bound to data the console does not have: a text field instead.
    input = (
      <select id={id} value={value === undefined ? '' : String(value)} onChange={(e) => onChange(schema.enum!.find((v) => String(v) === e.target.value))}>
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
        type={SECRET.test(name) ? 'password' : 'text'}
        value={typeof value === 'string' ? value : value === undefined ? '' : String(value)}
        placeholder={schema.default !== undefined ? String(schema.default) : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  } else {
    input = <JsonField id={id} value={value} onChange={onChange} />;
  }
  return (
    <div className={type === 'boolean' ? 'schema-field schema-check' : 'schema-field'}>
      <label htmlFor={id}>{label}</label> {input}
      {help}
      {problem}
    </div>
  );
}

/** Arrays and untyped values as JSON text; the value changes once the text parses. */
function JsonField({ id, value, onChange }: { id: string; value: unknown; onChange(next: unknown): void }) {
  const [text, setText] = useState(() => (value === undefined ? '' : JSON.stringify(value, null, 2)));
  const [bad, setBad] = useState<string>();
  return (
    <>
      <textarea
        id={id}
        rows={Math.min(8, Math.max(2, text.split('\n').length))}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          if (e.target.value.trim() === '') return (setBad(undefined), onChange(undefined));
          try {
            onChange(JSON.parse(e.target.value));
            setBad(undefined);
          } catch (error) {
            setBad((error as Error).message);
          }
        }}
      />
      {bad && <div className="error small">not JSON yet: {bad}</div>}
    </>
  );
}
