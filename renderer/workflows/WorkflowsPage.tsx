// The Workflows page (#/workflows): the workflows of the active profile, import
// from a JSON file, view one (#/workflows/<name>), delete with confirmation; the list is the
// shared Table (sorts by name, state, tasks, last updated) under a SearchBox ("/" focuses it).
import { useQueryClient } from '@tanstack/react-query';
import type { WorkflowSummary } from '../../core/contract/workflows';
import { call } from '../api/client';
import { DeleteButton } from '../shell/DeleteButton';
import { replaceParams, useRoute } from '../shell/route';
import { ImportWorkflow } from './ImportWorkflow';
import { WorkflowView } from './WorkflowView';
import { StartJob } from './StartJob';
import { NeedsCell } from './Needs';
import { Table, type Column } from '../components/Table';
import { matchesSearch, SearchBox } from '../components/SearchBox';
import { qk, refreshAfter } from '../api/keys';
import { useWorkflowList } from './useWorkflowList';

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

const COLUMNS: Column<WorkflowSummary>[] = [
  { id: 'name', header: 'Name', sortValue: (w) => w.name, cell: (w) => <a href={workflowHref(w.name)}>{w.name}</a> },
  { id: 'state', header: 'State', sortValue: (w) => w.needs.length, cell: (w) => <NeedsCell name={w.name} needs={w.needs} /> },
  {
    id: 'description',
    header: 'Description',
    cell: (w) => (
      <div className="clamp-2" title={w.description}>
        {w.description ?? <span className="muted">none</span>}
      </div>
    ),
  },
  { id: 'tasks', header: 'Tasks', sortValue: (w) => w.taskCount, cell: (w) => w.taskCount },
  { id: 'transitions', header: 'Transitions', cell: (w) => w.transitionCount },
  { id: 'form', header: 'Variables form', cell: (w) => (w.hasInputSchema ? 'from its input schema' : <span className="muted">JSON</span>) },
  { id: 'updated', header: 'Last updated', className: 'small nowrap', sortValue: (w) => w.lastUpdated, cell: (w) => new Date(w.lastUpdated).toLocaleString() },
  { id: 'actions', header: <span className="visually-hidden">Actions</span>, cell: (w) => <DeleteWorkflow name={w.name} /> },
];

/** `?ready=yes|no` keeps the list to the workflows that can (cannot) run, as the Overview's card links. */
function ReadyFilter({ ready, search, items }: { ready: string; search: string; items: WorkflowSummary[] }) {
  const blocked = items.filter((w) => w.needs.length > 0).length;
  return (
    <p className="filters">
      <label>
        Show{' '}
        <select value={ready} onChange={(e) => replaceParams({ ready: e.target.value || undefined, q: search || undefined })}>
          <option value="">every workflow ({items.length})</option>
          <option value="yes">ready to run ({items.length - blocked})</option>
          <option value="no">cannot run ({blocked})</option>
        </select>
      </label>
    </p>
  );
}

function WorkflowList() {
  const list = useWorkflowList();
  const params = useRoute().params;
  const ready = params.get('ready') ?? '';
  // The search is kept in the URL with the Show filter (`#/workflows?q=deploy`).
  const search = params.get('q') ?? '';
  const items = list.data?.items ?? [];
  const shown = items
    .filter((w) => (ready === 'no' ? w.needs.length > 0 : ready === 'yes' ? w.needs.length === 0 : true))
    .filter((w) => matchesSearch(search, w.name, w.description));
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
          <div className="filters">
            <SearchBox
              label="Search workflows"
              value={search}
              onChange={(q) => replaceParams({ ready: ready || undefined, q: q || undefined })}
              placeholder="name or description"
              status={search || ready ? `${shown.length} of ${items.length} shown` : undefined}
            />
            <ReadyFilter ready={ready} search={search} items={list.data.items} />
          </div>
          <Table
            label="Workflows"
            className="workflows-table"
            rows={shown}
            columns={COLUMNS}
            rowKey={(w) => w.name}
            initialSort={{ column: 'name', order: 'asc' }}
            pageSize={100}
            empty={search ? `No workflow matches “${search}”${ready ? ' under this Show filter' : ''}.` : 'No workflow matches this Show filter.'}
          />
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
