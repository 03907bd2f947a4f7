// Running an automation from a manual trigger. A trigger with a form (`formId`, a JSON form the
// pre-built imports stored) asks for it first, prefilled with the trigger's `formData`; one
// without runs at once. Either says which job it started.
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import type { Trigger } from '../../core/contract/automations';
import { missingRequired, SchemaForm } from '../adapters/SchemaForm';
import { Alert } from '../shell/Alert';
import { qk, refreshAfter } from '../api/keys';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function RunForm({ formId, initial, running, onRun, onCancel }: { formId: string; initial: Json; running: boolean; onRun: (values: Json) => void; onCancel: () => void }) {
  const form = useQuery({ queryKey: qk.jsonForm(formId), queryFn: () => call('jsonForms.get', { params: { id: formId } }), retry: false });
  const [value, setValue] = useState<Json>(initial);
  const [missing, setMissing] = useState<string[]>([]);
  if (form.isPending) return <p className="muted">Loading the form “{formId}”…</p>;
  if (form.isError) return <Alert>{form.error.message}</Alert>;
  const schema = isObject(form.data.schema) ? form.data.schema : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const empty = Object.keys(missingRequired(schema, value));
    setMissing(empty);
    if (empty.length === 0) onRun(value);
  };
  return (
    <form className="json-form" aria-label={`Form ${form.data.name}`} onSubmit={submit}>
      <SchemaForm schema={schema} value={value} labels="title" onChange={setValue} />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={running}>
          Run with these values
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        {missing.length > 0 && <Alert as="span">Required: {missing.join(', ')}</Alert>}
      </div>
    </form>
  );
}

export function ManualRun({ trigger, automation, onStarted }: { trigger: Trigger; automation: string; onStarted: () => void }) {
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const [started, setStarted] = useState<string>();
  const run = useMutation({
    mutationFn: (formData: Json) => call('triggers.runManual', { params: { id: trigger._id }, body: { formData } }),
    onSuccess: (answer) => {
      setAsking(false);
      setStarted(answer.data._id);
      void refreshAfter(queryClient, 'automations', 'job');
      onStarted();
    },
  });
  const formId = typeof trigger.formId === 'string' && trigger.formId ? trigger.formId : undefined;
  const initial = isObject(trigger.formData) ? trigger.formData : {};
  return (
    <>
      {' '}
      <button
        type="button"
        onClick={() => (formId ? setAsking(true) : run.mutate({}))}
        disabled={run.isPending || !trigger.enabled}
        aria-label={`Run ${automation} by ${trigger.name}`}
      >
        {run.isPending ? 'Starting…' : 'Run'}
      </button>
      {formId && <span className="muted small"> form “{formId}”</span>}
      {started && (
        <span role="status" className="small">
          {' '}
          Started <a href={`#/jobs/${encodeURIComponent(started)}`}>job {started}</a>
        </span>
      )}
      {run.isError && <Alert as="span"> Cannot run: {run.error.message}</Alert>}
      {asking && formId && <RunForm formId={formId} initial={initial} running={run.isPending} onRun={(values) => run.mutate(values)} onCancel={() => setAsking(false)} />}
    </>
  );
}
