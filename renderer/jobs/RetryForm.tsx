// Edit and retry a task in error: the values it was given (its incoming) and the job's variables,
// each as JSON prefilled with what they are now; what the operator changes is sent with the retry,
// and the job's history records who changed what.
import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import { Alert } from '../shell/Alert';
import { useUnsavedChanges } from '../shell/unsaved';
import { refreshAfter } from '../api/keys';

type Json = Record<string, unknown>;
const pretty = (value: unknown) => JSON.stringify(value ?? {}, null, 2);
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The text as a JSON object, or the problem named by the field. */
function readObject(label: string, text: string): { value: Json } | { problem: string } {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? { value } : { problem: `${label}: write a JSON object ({ "name": value })` };
  } catch (error) {
    return { problem: `${label}: not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
}

/** The variables whose value differs from before (only those are set). */
function changedVariables(before: Json, after: Json): Json {
  return Object.fromEntries(Object.entries(after).filter(([name, value]) => JSON.stringify(before[name]) !== JSON.stringify(value)));
}

export function RetryForm({ jobId, taskId, incoming, variables, onDone }: { jobId: string; taskId: string; incoming: Json; variables: Json; onDone: () => void }) {
  const id = useId();
  const client = useQueryClient();
  const [incomingText, setIncomingText] = useState(() => pretty(incoming));
  const [variablesText, setVariablesText] = useState(() => pretty(variables));
  const [problems, setProblems] = useState<{ incoming?: string; variables?: string }>({});
  const dirty = incomingText !== pretty(incoming) || variablesText !== pretty(variables);
  useUnsavedChanges(dirty, `the retry of task ${taskId}`);
  const retry = useMutation({
    mutationFn: (body: { incoming?: Json; variables?: Json }) => call('jobs.retryTask', { params: { id: jobId, taskId }, body }),
    onSuccess: () => {
      void refreshAfter(client, 'job');
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const readIncoming = readObject('Incoming values', incomingText);
    const readVariables = readObject('Job variables', variablesText);
    setProblems({ ...('problem' in readIncoming ? { incoming: readIncoming.problem } : {}), ...('problem' in readVariables ? { variables: readVariables.problem } : {}) });
    if ('problem' in readIncoming || 'problem' in readVariables) return;
    const body: { incoming?: Json; variables?: Json } = {};
    if (incomingText !== pretty(incoming)) body.incoming = readIncoming.value;
    const changed = changedVariables(variables, readVariables.value);
    if (Object.keys(changed).length) body.variables = changed;
    retry.mutate(body);
  };
  return (
    <form className="retry-form" aria-label={`Edit and retry task ${taskId}`} onSubmit={submit}>
      <div className="task-values">
        <div className="form-row">
          <label htmlFor={`${id}-incoming`}>Incoming values of {taskId}</label>
          <textarea id={`${id}-incoming`} rows={8} value={incomingText} onChange={(e) => setIncomingText(e.target.value)} aria-invalid={problems.incoming ? true : undefined} />
          {problems.incoming && <Alert className="small">{problems.incoming}</Alert>}
          <span className="muted small">Changed, the task runs with these values as they are.</span>
        </div>
        <div className="form-row">
          <label htmlFor={`${id}-variables`}>Job variables</label>
          <textarea id={`${id}-variables`} rows={8} value={variablesText} onChange={(e) => setVariablesText(e.target.value)} aria-invalid={problems.variables ? true : undefined} />
          {problems.variables && <Alert className="small">{problems.variables}</Alert>}
          <span className="muted small">The variables you change are set before the retry; the others stay.</span>
        </div>
      </div>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={retry.isPending}>
          {dirty ? 'Retry with these changes' : 'Retry as it is'}
        </button>
        <button type="button" onClick={onDone}>
          Close
        </button>
        {retry.isError && <Alert as="span">Not retried: {retry.error.message}</Alert>}
      </div>
    </form>
  );
}
