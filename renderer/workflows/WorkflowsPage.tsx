// The Workflows page (#/workflows): the workflows of the active profile, import
// from a JSON file, view one (#/workflows/<name>), delete with confirmation.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { WorkflowSummary } from '../../core/contract/workflows';
import { call } from '../api/client';
import { DeleteButton } from '../shell/DeleteButton';
import { replaceParams, useRoute } from '../shell/route';
import { ImportWorkflow } from './ImportWorkflow';
import { WorkflowView } from './WorkflowView';
import { StartJob } from './StartJob';
import { NeedsCell } from './Needs';
import { qk, refreshAfter } from '../api/keys';

export const workflowHref = (name: string) => `#/workflows/${encodeURIComponent(name)}`;

function DeleteWorkflow({ name, onDeleted }: { name: string; onDeleted?: () => void }) {
  const queryClient = useQueryClient();
  return (
    <DeleteButton
      name={name}
      consequence="Jobs already started keep running."
      remove={() => call('workflows.delete', { params: { name } })}
      onDeleted={() => {
        queryClient.removeQueries({ queryKey: qk.workflow(name) });
        void refreshAfter(queryClient, 'workflows');
        onDeleted?.();
      }}
    />
  );
}

function WorkflowTable({ items }: { items: WorkflowSummary[] }) {
  return (
    <table aria-label="Workflows" className="workflows-table">
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
            <td>
              <div className="clamp-2" title={w.description}>
                {w.description ?? <span className="muted">none</span>}
              </div>
            </td>
            <td>{w.taskCount}</td>
            <td>{w.transitionCount}</td>
            <td>{w.hasInputSchema ? 'from its input schema' : <span className="muted">JSON</span>}</td>
            <td className="small nowrap">{new Date(w.lastUpdated).toLocaleString()}</td>
            <td>
              <DeleteWorkflow name={w.name} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** `?ready=yes|no` keeps the list to the workflows that can (cannot) run, as the Overview's card links. */
function ReadyFilter({ ready, items }: { ready: string; items: WorkflowSummary[] }) {
  const blocked = items.filter((w) => w.needs.length > 0).length;
  return (
    <p className="filters">
      <label>
        Show{' '}
        <select value={ready} onChange={(e) => replaceParams({ ready: e.target.value || undefined })}>
          <option value="">every workflow ({items.length})</option>
          <option value="yes">ready to run ({items.length - blocked})</option>
          <option value="no">cannot run ({blocked})</option>
        </select>
      </label>
    </p>
  );
}

function WorkflowList() {
  const list = useQuery({ queryKey: qk.workflows(), queryFn: () => call('workflows.list') });
  const ready = useRoute().params.get('ready') ?? '';
  const shown = (list.data?.items ?? []).filter((w) => (ready === 'no' ? w.needs.length > 0 : ready === 'yes' ? w.needs.length === 0 : true));
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
      {list.data && list.data.items.length > 0 && (
        <>
          <ReadyFilter ready={ready} items={list.data.items} />
          <WorkflowTable items={shown} />
        </>
      )}
    </section>
  );
}

export function WorkflowsPage() {
  // The workflow named in `#/workflows/<name>` (slashes typed unencoded kept in the name).
  const selected = useRoute().segments.slice(1).join('/');
  if (!selected) return <WorkflowList />;
  return (
    <WorkflowView
      name={selected}
      actions={(workflow, needs) => (
        <div className="workflow-actions">
          {needs === undefined ? (
            <span className="muted">Checking what it needs…</span>
          ) : needs.length === 0 ? (
            <StartJob workflow={workflow} />
          ) : (
            <span className="muted">Start is offered once it has what it needs.</span>
          )}{' '}
          <DeleteWorkflow name={workflow.name} onDeleted={() => (window.location.hash = '#/workflows')} />
        </div>
      )}
    />
  );
}
