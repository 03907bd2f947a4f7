// The JsonForms manual tasks. ShowJsonForm: the form its `form_id` names (from the json_forms the
// pre-built imports stored), prefilled with `instance_data`; RenderJsonSchema: a form made from the
// `jsonSchema` it is given, prefilled with `formData`. Either is filled by the operator and submitted
// as the task's outgoing `export`. A form this console does not have is named, with what to do.
// The prefilled values read masked where they are or hold a secret variable's value (until the
// page's Reveal); a value left as it was shown is submitted with its real value, never the mask.
import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { call } from '../api/client';
import { missingRequired, SchemaForm } from '../adapters/SchemaForm';
import { useUnsavedChanges } from '../shell/unsaved';
import { useFinishTask } from './FinishTaskForm';
import { Alert } from '../shell/Alert';
import { qk } from '../api/keys';
import { restoreDeep, useSecrets, useShownDeep } from './SecretVariables';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export const isJsonFormTask = (task: { app?: string; name: string }) =>
  task.app === 'JsonForms' && (task.name === 'ShowJsonForm' || task.name === 'RenderJsonSchema');

type PanelProps = { jobId: string; taskId: string; incoming: Json; onFinished?: (message: string) => void };

/** The panel of a JsonForms manual task: its stored form (ShowJsonForm) or the schema it is given (RenderJsonSchema). */
export function JsonFormPanel(props: PanelProps & { name?: string }) {
  if (props.name === 'RenderJsonSchema') {
    const schema = isObject(props.incoming.jsonSchema) ? props.incoming.jsonSchema : {};
    const title = typeof schema.title === 'string' && schema.title ? schema.title : 'Form';
    const description = typeof schema.description === 'string' ? schema.description : undefined;
    return <FilledForm {...props} form={{ name: title, description, schema }} initial={props.incoming.formData} />;
  }
  return <StoredForm {...props} />;
}

/** ShowJsonForm: the stored form `form_id` names. */
function StoredForm(props: PanelProps) {
  const formId = typeof props.incoming.form_id === 'string' ? props.incoming.form_id : '';
  const form = useQuery({ queryKey: qk.jsonForm(formId), queryFn: () => call('jsonForms.get', { params: { id: formId } }), enabled: formId !== '', retry: false });
  if (!formId) return <p className="error">This ShowJsonForm task names no form_id: finish it with its values below.</p>;
  if (form.isPending) return <p className="muted">Loading the form “{formId}”…</p>;
  if (form.isError) return <Alert>{form.error.message}</Alert>;
  const schema = (isObject(form.data.schema) ? form.data.schema : {}) as Json;
  return <FilledForm {...props} form={{ name: form.data.name, description: form.data.description ?? undefined, schema }} initial={props.incoming.instance_data} />;
}

/** A property's title (or name) at a path such as `site.name`. */
function titleAt(schema: Json, path: string): string {
  let at: Json = schema;
  for (const key of path.split('.')) {
    const properties = isObject(at.properties) ? at.properties : {};
    const next = properties[key];
    at = isObject(next) ? next : {};
  }
  return typeof at.title === 'string' && at.title ? at.title : (path.split('.').pop() ?? path);
}

function FilledForm({
  jobId,
  taskId,
  onFinished,
  form,
  initial,
}: PanelProps & { form: { name: string; description?: string; schema: Json }; initial: unknown }) {
  const original: Json = isObject(initial) ? initial : {};
  const secrets = useSecrets();
  const shown = useShownDeep();
  const prefill = (): Json => {
    const masked = shown(original);
    return isObject(masked) ? masked : {};
  };
  const [value, setValue] = useState<Json>(prefill);
  // The empty required fields, by property path: each says so under itself, the line by the button names them.
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [dirty, setDirty] = useState(false);
  useUnsavedChanges(dirty, `the form of task ${taskId}`);
  // The page's Reveal or Hide (or its secrets read): a form the operator has not edited shows the values as the page does.
  const shownNow = JSON.stringify(prefill());
  const [shownBefore, setShownBefore] = useState(shownNow);
  if (shownBefore !== shownNow) {
    setShownBefore(shownNow);
    if (!dirty) setValue(prefill());
  }
  const finish = useFinishTask(jobId, taskId, (message) => {
    setDirty(false);
    onFinished?.(message);
  });
  const schema = form.schema;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const empty = missingRequired(schema, value);
    setErrors(empty);
    if (Object.keys(empty).length) return;
    finish.mutate({ values: { export: restoreDeep(value, original, secrets) }, state: 'success' });
  };
  return (
    <form className="json-form" aria-label={`Form ${form.name} of ${taskId}`} onSubmit={submit}>
      <h4>{form.name}</h4>
      {form.description && <p className="muted">{form.description}</p>}
      <SchemaForm
        schema={schema}
        value={value}
        labels="title"
        errors={errors}
        onChange={(next) => {
          setValue(next);
          setDirty(true);
          // A field filled in is no longer named.
          if (Object.keys(errors).length) setErrors(missingRequired(schema, next));
        }}
      />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={finish.isPending}>
          Submit the form
        </button>
        {Object.keys(errors).length > 0 && (
          <Alert as="span" label="Form problems">
            Required: {Object.keys(errors).map((path) => titleAt(schema, path)).join(', ')}
          </Alert>
        )}
        {finish.isError && (
          <Alert as="span">
            {finish.error.message}
          </Alert>
        )}
      </div>
    </form>
  );
}
