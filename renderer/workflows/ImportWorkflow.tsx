// Import a workflow from a JSON file in the reference shape. When the console
// refuses it, the problems are shown per task and per transition.
import { useState, type ChangeEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WorkflowProblem } from '../../core/contract/workflows';
import { call } from '../api/client';
import { groupProblems, problemsOf } from './problems';
import { Alert } from '../shell/Alert';
import { refreshAfter } from '../api/keys';

interface Refusal {
  file: string;
  name?: string;
  problems: WorkflowProblem[];
}

function ProblemList({ refusal }: { refusal: Refusal }) {
  const groups = groupProblems(refusal.problems);
  return (
    <Alert look="error-banner" as="div" className="workflow-problems" label="Import problems">
      <strong>
        Cannot import {refusal.name ? `workflow "${refusal.name}"` : refusal.file}: {refusal.problems.length}{' '}
        {refusal.problems.length === 1 ? 'problem' : 'problems'}
      </strong>
      <ProblemGroup title="Tasks" noun="Task" label="Task problems" groups={groups.tasks} />
      <ProblemGroup title="Transitions" noun="Transition" label="Transition problems" groups={groups.transitions} />
      {groups.other.length > 0 && (
        <>
          <h4>Workflow</h4>
          <ul aria-label="Workflow problems">
            {groups.other.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </>
      )}
    </Alert>
  );
}

export function ImportWorkflow() {
  const queryClient = useQueryClient();
  const [overwrite, setOverwrite] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [imported, setImported] = useState<{ name: string; warnings: number } | null>(null);
  const [inputKey, setInputKey] = useState(0);

  const create = useMutation({
    mutationFn: (input: { file: string; json: unknown }) =>
      call('workflows.create', { body: input.json as never, query: { overwrite: overwrite ? 'true' : 'false' } }),
    onSuccess: (saved) => {
      setImported({ name: saved.name, warnings: saved.warnings.length });
      setRefusal(null);
      void refreshAfter(queryClient, 'workflows');
    },
    onError: (error, input) => {
      const name = (input.json as { name?: unknown } | null)?.name;
      setRefusal({ file: input.file, name: typeof name === 'string' ? name : undefined, problems: problemsOf(error) });
    },
  });

  async function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    setInputKey((k) => k + 1); // lets the same file be chosen again after a fix
    if (!file) return;
    setImported(null);
    setRefusal(null);
    let json: unknown;
    try {
      json = JSON.parse(await file.text());
    } catch (error) {
      setRefusal({ file: file.name, problems: [{ path: '', message: `${file.name} is not JSON: ${(error as Error).message}` }] });
      return;
    }
    create.mutate({ file: file.name, json });
  }

  return (
    <section className="workflow-import" aria-label="Import a workflow">
      <h2>Import</h2>
      <p className="muted">
        A workflow JSON file as the service exports it (name, tasks keyed by id, transitions; every other field is kept). A workflow whose
        adapters, applications, child workflows or transformations are not here yet is saved all the same, and listed with what it needs.
      </p>
      <label>
        Workflow file (JSON){' '}
        <input key={inputKey} type="file" accept=".json,application/json" onChange={(event) => void onFile(event)} disabled={create.isPending} />
      </label>{' '}
      <label>
        <input type="checkbox" checked={overwrite} onChange={(e) => setOverwrite(e.target.checked)} /> Replace a workflow of the same name
      </label>
      {create.isPending && <p>Importing…</p>}
      {imported && (
        <p className="good" role="status">
          Imported workflow “{imported.name}”.
          {imported.warnings > 0 && (
            <>
              {' '}
              {imported.warnings === 1 ? '1 warning' : `${imported.warnings} warnings`}:{' '}
              <a href={`#/workflows/${encodeURIComponent(imported.name)}`}>see its page</a>.
            </>
          )}
        </p>
      )}
      {refusal && <ProblemList refusal={refusal} />}
    </section>
  );
}

/** Problems of one kind (tasks or transitions), each place with its messages. */
function ProblemGroup({ title, noun, label, groups }: { title: string; noun: string; label: string; groups: Map<string, string[]> }) {
  if (groups.size === 0) return null;
  return (
    <>
      <h4>{title}</h4>
      <ul aria-label={label}>
        {[...groups].map(([place, messages]) => (
          <li key={place}>
            {noun} <code>{place}</code>
            <ul>
              {messages.map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </>
  );
}
