// "Start job" on a workflow: a variables form generated from the workflow's
// inputSchema (a JSON editor when it has none), calling the `jobs.start` operation.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { StoredWorkflow } from '../../core/contract/workflows';
import { ApiError, call } from '../api/client';
import { fieldsOf, variablesOf, type Field } from './variables-form';
import { useUnsavedChanges } from '../shell/unsaved';
import { Alert } from '../shell/Alert';
import { refreshAfter } from '../api/keys';

function startJob(workflow: string, description: string, variables: Record<string, unknown>) {
  return call('jobs.start', { body: { workflow, options: { ...(description ? { description } : {}), variables } } });
}

function FieldInput({ field, value, onChange }: { field: Field; value: string; onChange: (v: string) => void }) {
  const id = `var-${field.name}`;
  const common = { id, 'aria-required': field.required || undefined, 'aria-describedby': field.description ? `${id}-help` : undefined };
  let input;
  if (field.kind === 'boolean') {
    input = (
      <select {...common} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">(not set)</option>
        <option value="true">true</option>
        <option value="false">false</option>
      </select>
    );
  } else if (field.kind === 'choice') {
    input = (
      <select {...common} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">(not set)</option>
        {field.choices!.map((choice) => (
          <option key={JSON.stringify(choice)} value={JSON.stringify(choice)}>
            {String(choice)}
          </option>
        ))}
      </select>
    );
  } else if (field.kind === 'json' || field.kind === 'union') {
    const placeholder = field.kind === 'union' && field.types?.includes('string') ? 'text, or JSON' : 'JSON';
    input = <textarea {...common} rows={3} value={value} onChange={(e) => onChange(e.target.value)} placeholder={placeholder} />;
  } else {
    input = <input {...common} type={field.kind === 'text' ? 'text' : 'number'} value={value} onChange={(e) => onChange(e.target.value)} />;
  }
  return (
    <div className="form-row">
      <label htmlFor={id}>
        {field.label}
        {field.required && (
          <span className="required-mark" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      {input}
      {field.description && (
        <span id={`${id}-help`} className="muted">
          {field.description}
        </span>
      )}
    </div>
  );
}

export function StartJob({ workflow }: { workflow: StoredWorkflow }) {
  const queryClient = useQueryClient();
  const fields = fieldsOf(workflow.inputSchema);
  const [open, setOpen] = useState(false);
  const [description, setDescription] = useState('');
  const [raw, setRaw] = useState<Record<string, string>>({});
  const [json, setJson] = useState('{}');
  const [formErrors, setFormErrors] = useState<Record<string, string>>({});
  // Focus follows the form: into its first field when it opens, back to "Start job" when it closes.
  const firstField = useRef<HTMLInputElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  useEffect(() => {
    if (open) firstField.current?.focus();
    else if (wasOpen.current) opener.current?.focus();
    wasOpen.current = open;
  }, [open]);

  const start = useMutation({
    mutationFn: (variables: Record<string, unknown>) => startJob(workflow.name, description, variables),
    onSuccess: () => void refreshAfter(queryClient, 'job'),
  });
  useUnsavedChanges(open && !start.isSuccess && (description !== '' || Object.values(raw).some((v) => v !== '') || json.trim() !== '{}'), 'the start-job form');

  function submit(event: FormEvent) {
    event.preventDefault();
    let variables: Record<string, unknown>;
    if (fields) {
      const result = variablesOf(fields, raw);
      setFormErrors(result.errors);
      if (Object.keys(result.errors).length) return;
      variables = result.variables;
    } else {
      try {
        const parsed = JSON.parse(json) as unknown;
        if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('the variables must be a JSON object');
        variables = parsed as Record<string, unknown>;
        setFormErrors({});
      } catch (error) {
        setFormErrors({ variables: `Variables: ${(error as Error).message}` });
        return;
      }
    }
    start.mutate(variables);
  }

  if (!open) {
    return (
      <button ref={opener} type="button" className="primary" data-page-actions onClick={() => setOpen(true)}>
        Start job
      </button>
    );
  }
  const serverErrors = start.error instanceof ApiError ? start.error.fieldErrors : {};
  const started = start.data?.data?._id;
  return (
    <form
      className="start-job"
      aria-label={`Start a job of ${workflow.name}`}
      onSubmit={submit}
      onKeyDown={(event) => event.key === 'Escape' && !start.isPending && setOpen(false)}
    >
      <h2>Start a job</h2>
      <div className="form-row">
        <label htmlFor="job-description">Description</label>
        <input ref={firstField} id="job-description" value={description} onChange={(e) => setDescription(e.target.value)} />
      </div>
      {fields ? (
        fields.map((field) => (
          <div key={field.name}>
            <FieldInput field={field} value={raw[field.name] ?? ''} onChange={(v) => setRaw((r) => ({ ...r, [field.name]: v }))} />
            {formErrors[field.name] && <p className="error">{formErrors[field.name]}</p>}
          </div>
        ))
      ) : (
        <div className="form-row">
          <label htmlFor="job-variables">Variables (JSON object)</label>
          <textarea id="job-variables" rows={6} value={json} onChange={(e) => setJson(e.target.value)} />
          {formErrors.variables && <p className="error">{formErrors.variables}</p>}
        </div>
      )}
      <p className="muted">An empty field is left out: the job sees that variable as undefined.</p>
      <button type="submit" className="primary" disabled={start.isPending}>
        {start.isPending ? 'Starting…' : 'Start'}
      </button>{' '}
      <button type="button" onClick={() => setOpen(false)}>
        Close
      </button>
      {start.isError && (
        <Alert look="error-banner" as="div">
          Cannot start the job: {start.error.message}
          {Object.keys(serverErrors).length > 0 && (
            <ul>
              {Object.entries(serverErrors).map(([path, message]) => (
                <li key={path}>
                  <code>{path}</code>: {message}
                </li>
              ))}
            </ul>
          )}
        </Alert>
      )}
      {started && (
        <p className="good" role="status">
          Started job <a href={`#/jobs/${encodeURIComponent(started)}`}>{started}</a> ({start.data?.data?.status ?? 'running'}).
        </p>
      )}
    </form>
  );
}
