// Edit and retry a task in error: the values it was given (its incoming) and the job's variables,
// each as JSON prefilled with what they are now; what the operator changes is sent with the retry,
// and the job's history records who changed what. Secret variables (and the values under their
// names) read masked like the rest of the job's page until the operator reveals them; a field left
// reading the mask keeps its real value, so the mask string is never sent.
import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import { Alert } from '../shell/Alert';
import { useUnsavedChanges } from '../shell/unsaved';
import { refreshAfter } from '../api/keys';
import { isMasked, MASK, maskValue, unmaskValue, useSecrets } from './SecretVariables';

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

/**
 * The box's text once the page's reveal state changes: the secrets the operator left as they were
 * masked or shown with it; one they typed stays as typed; text that is not a JSON object as it is.
 */
function reshow(text: string, original: Json, names: readonly string[], revealed: boolean): string {
  const read = readObject('', text);
  if ('problem' in read) return text;
  const value = unmaskValue(read.value, original, names);
  if (revealed) return pretty(value);
  return pretty(Object.fromEntries(Object.entries(value).map(([key, item]) => [key, isMasked(names, key, item) && JSON.stringify(item) === JSON.stringify(original[key]) ? MASK : item])));
}

export function RetryForm({ jobId, taskId, incoming, variables, onDone }: { jobId: string; taskId: string; incoming: Json; variables: Json; onDone: () => void }) {
  const id = useId();
  const client = useQueryClient();
  const { names, revealed } = useSecrets();
  // What each box opens with: the value as the page shows it now (masked until revealed).
  const initial = (value: Json) => pretty(revealed ? value : maskValue(value, names));
  const [incomingText, setIncomingText] = useState(() => initial(incoming));
  const [variablesText, setVariablesText] = useState(() => initial(variables));
  const [shownRevealed, setShownRevealed] = useState(revealed);
  if (shownRevealed !== revealed) {
    setShownRevealed(revealed);
    setIncomingText(reshow(incomingText, incoming, names, revealed));
    setVariablesText(reshow(variablesText, variables, names, revealed));
  }
  const [problems, setProblems] = useState<{ incoming?: string; variables?: string }>({});
  const dirty = incomingText !== initial(incoming) || variablesText !== initial(variables);
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
    if (incomingText !== initial(incoming)) body.incoming = unmaskValue(readIncoming.value, incoming, names);
    const changed = changedVariables(variables, unmaskValue(readVariables.value, variables, names));
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
          {!revealed && names.length > 0 && <span className="muted small"> A secret left as {MASK} keeps its value.</span>}
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
