// The JsonForms manual tasks. ShowJsonForm: the form its `form_id` names (from the json_forms the
// pre-built imports stored), prefilled with `instance_data`; RenderJsonSchema: a form made from the
// `jsonSchema` it is given, prefilled with `formData`. Either is filled by the operator and submitted
// as the task's outgoing `export`. A form this console does not have is named, with what to do.
import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { call } from '../api/client';
import { SchemaForm } from '../adapters/SchemaForm';
import { useUnsavedChanges } from '../shell/unsaved';
import { useFinishTask } from './FinishTaskForm';
import { Alert } from '../shell/Alert';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export const isJsonFormTask = (task: { app?: string; name: string }) =>
  task.app === 'JsonForms' && (task.name === 'ShowJsonForm' || task.name === 'RenderJsonSchema');

/** The required fields left empty, by their titles. */
function missing(schema: Json, value: Json): string[] {
  const properties = (isObject(schema.properties) ? schema.properties : {}) as Record<string, Json>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return required.filter((key) => value[key] === undefined || value[key] === '').map((key) => String(properties[key]?.title ?? key));
}

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
  const form = useQuery({ queryKey: ['jsonForms.get', formId], queryFn: () => call('jsonForms.get', { params: { id: formId } }), enabled: formId !== '', retry: false });
  if (!formId) return <p className="error">This ShowJsonForm task names no form_id: finish it with its values below.</p>;
  if (form.isPending) return <p className="muted">Loading the form “{formId}”…</p>;
  if (form.isError) return <Alert>{form.error.message}</Alert>;
  const schema = (isObject(form.data.schema) ? form.data.schema : {}) as Json;
  return <FilledForm {...props} form={{ name: form.data.name, description: form.data.description ?? undefined, schema }} initial={props.incoming.instance_data} />;
}

function FilledForm({
  jobId,
  taskId,
  onFinished,
  form,
  initial,
}: PanelProps & { form: { name: string; description?: string; schema: Json }; initial: unknown }) {
  const [value, setValue] = useState<Json>(() => (isObject(initial) ? initial : {}));
  const [problem, setProblem] = useState('');
  const [dirty, setDirty] = useState(false);
  useUnsavedChanges(dirty, `the form of task ${taskId}`);
  const finish = useFinishTask(jobId, taskId, (message) => {
    setDirty(false);
    onFinished?.(message);
  });
  const schema = form.schema;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const empty = missing(schema, value);
    if (empty.length) return setProblem(`Required: ${empty.join(', ')}`);
    setProblem('');
    finish.mutate({ values: { export: value }, state: 'success' });
  };
  return (
    <form className="json-form" aria-label={`Form ${form.name} of ${taskId}`} onSubmit={submit}>
      <h4>{form.name}</h4>
      {form.description && <p className="muted">{form.description}</p>}
      <SchemaForm
        schema={schema}
        value={value}
        labels="title"
        onChange={(next) => {
          setValue(next);
          setDirty(true);
        }}
      />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={finish.isPending}>
          Submit the form
        </button>
        {problem && (
          <Alert as="span">
            {problem}
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
