// The Workflows page (#/workflows): the workflows of the active profile, import
// from a JSON file, view one (#/workflows/<name>), delete with confirmation.
import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { WorkflowSummary } from '../../core/contract/workflows';
import { call } from '../api/client';
import { ImportWorkflow } from './ImportWorkflow';
import { WorkflowView } from './WorkflowView';
import { StartJob } from './StartJob';
import { NeedsCell } from './Needs';

/** The workflow named in `#/workflows/<name>`, if any. */
function workflowFromHash(): string | null {
  const match = /^#\/workflows\/(.+)$/.exec(window.location.hash);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return match[1]!;
  }
}

export const workflowHref = (name: string) => `#/workflows/${encodeURIComponent(name)}`;

function DeleteButton({ name, onDeleted }: { name: string; onDeleted?: () => void }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => call('workflows.delete', { params: { name } }),
    onSuccess: () => {
      setConfirming(false);
      void queryClient.invalidateQueries({ queryKey: ['workflows.list'] });
      queryClient.removeQueries({ queryKey: ['workflows.get', name] });
      onDeleted?.();
    },
  });
  if (!confirming) {
    return (
      <button type="button" onClick={() => setConfirming(true)} aria-label={`Delete ${name}`}>
        Delete
      </button>
    );
  }
  return (
    <span role="group" aria-label={`Confirm deleting ${name}`} className="confirm">
      Delete “{name}”? Jobs already started keep running.{' '}
      <button type="button" className="danger" onClick={() => remove.mutate()} disabled={remove.isPending}>
        {remove.isPending ? 'Deleting…' : 'Yes, delete'}
      </button>{' '}
      <button type="button" onClick={() => setConfirming(false)} disabled={remove.isPending}>
        Cancel
      </button>
      {remove.isError && <span className="error"> Cannot delete: {remove.error.message}</span>}
    </span>
  );
}

function WorkflowTable({ items }: { items: WorkflowSummary[] }) {
  return (
    <table aria-label="Workflows">
      <thead>
        <tr>
          <th>Name</th>
          <th>State</th>
          <th>Description</th>
          <th>Tasks</th>
          <th>Transitions</th>
          <th>Variables form</th>
          <th>Last updated</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {items.map((w) => (
          <tr key={w.name}>
            <td>
              <a href={workflowHref(w.name)}>{w.name}</a>
            </td>
            <td>
              <NeedsCell name={w.name} needs={w.needs} />
            </td>
            <td>{w.description ?? <span className="muted">none</span>}</td>
            <td>{w.taskCount}</td>
            <td>{w.transitionCount}</td>
            <td>{w.hasInputSchema ? 'from its input schema' : <span className="muted">JSON</span>}</td>
            <td>{new Date(w.lastUpdated).toLocaleString()}</td>
            <td>
              <DeleteButton name={w.name} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function WorkflowList() {
  const list = useQuery({ queryKey: ['workflows.list'], queryFn: () => call('workflows.list') });
  return (
    <section>
      <h1>Workflows</h1>
      <ImportWorkflow />
      <h2>Workflows of the active profile</h2>
      {list.isPending && <p>Loading workflows…</p>}
      {list.isError && <p className="error">Cannot list workflows: {list.error.message}</p>}
      {list.data && list.data.items.length === 0 && (
        <p className="muted">
          No workflows yet. Import one from a JSON file above, or a pre-built or project on the <a href="#/import">Import</a> page.
        </p>
      )}
      {list.data && list.data.items.length > 0 && <WorkflowTable items={list.data.items} />}
    </section>
  );
}

export function WorkflowsPage() {
  const [selected, setSelected] = useState(workflowFromHash);
  useEffect(() => {
    const onHash = () => setSelected(workflowFromHash());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  if (!selected) return <WorkflowList />;
  return (
    <WorkflowView
      name={selected}
      actions={(workflow) => (
        <div className="workflow-actions">
          <StartJob workflow={workflow} />{' '}
          <DeleteButton name={workflow.name} onDeleted={() => (window.location.hash = '#/workflows')} />
        </div>
      )}
    />
  );
}
