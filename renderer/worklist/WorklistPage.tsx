// The work queue (as a tasklist): every manual task waiting for an operator across
// the jobs, oldest first, with its job, workflow, age and who claimed it; "mine",
// "unassigned" and "all" views (kept in the URL). The selected task is drawn as the job
// page draws it (ViewData's heading and buttons, ErrorHandling's answers, a JSON form)
// beside the list, with Claim / Release, or Take over when another operator claimed it (only
// whoever holds a claim can finish the task; a take-over is recorded in the job's history);
// below, the tasks operators finished, by whom and when.
import { useState, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { WorkItem } from '../../core/contract/worklist';
import { call } from '../api/client';
import { Alert } from '../shell/Alert';
import { ago, formatTime, formatValue } from '../jobs/format';
import { replaceParams, useRoute } from '../shell/route';
import { ManualTaskPanel } from '../jobs/ManualTask';
import { SecretVariables, secretValues, useShownDeep } from '../jobs/SecretVariables';
import { qk, refreshAfter } from '../api/keys';

type View = 'all' | 'mine' | 'unassigned';
const VIEWS: { view: View; label: string }[] = [
  { view: 'mine', label: 'Mine' },
  { view: 'unassigned', label: 'Unassigned' },
  { view: 'all', label: 'All' },
];

type ClaimAction = 'claim' | 'release' | 'take-over';

function useClaim(item: WorkItem) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (action: ClaimAction) => {
      const params = { taskId: item._id };
      if (action === 'take-over') return call('tasks.assign', { params, body: {} });
      return call(action === 'claim' ? 'tasks.claim' : 'tasks.release', { params });
    },
    onSettled: () => void refreshAfter(client, 'worklist'),
  });
}

/** The task's incoming values as the panel shows them: secrets masked until revealed. */
function IncomingValues({ item }: { item: WorkItem }) {
  const shown = useShownDeep();
  return (
    <pre className="json-block job-value" aria-label={`incoming of ${item.taskId}`}>
      {formatValue(shown(item.incoming ?? {}))}
    </pre>
  );
}

/**
 * The task's job's secret variables (read with the job) and the incoming values the classifier
 * names (known at once): the panel masks them, and their values, until the operator reveals them.
 */
function TaskSecrets({ item, children }: { item: WorkItem; children: ReactNode }) {
  const job = useQuery({ queryKey: qk.job(item.jobId), queryFn: () => call('jobs.get', { params: { id: item.jobId } }), retry: false });
  const variables = job.data?.data.variables ?? {};
  const jobNames = job.data?.data.secretVariables ?? [];
  const names = [...new Set([...jobNames, ...(item.secretIncoming ?? [])])];
  return (
    <SecretVariables key={item._id} jobId={item.jobId} names={names} values={secretValues(variables, jobNames)} revealNames={jobNames}>
      {job.isError && <Alert>Cannot read the job&apos;s secret variables: {job.error.message} (values masked by their names only)</Alert>}
      {/* Nothing of the task is shown before its job's secret variables are known. */}
      {job.isPending ? <p className="muted">Reading the job…</p> : children}
    </SecretVariables>
  );
}

function Detail({ item, operator, onFinished }: { item: WorkItem; operator: string; onFinished: (message: string) => void }) {
  const claim = useClaim(item);
  const heldByOther = item.assignee !== undefined && item.assignee !== operator;
  return (
    <section className="split-detail" aria-label={`Task ${item.taskId} of job ${item.jobId}`}>
      <h2>
        {item.summary ?? item.name} <span className="muted small">task {item.taskId}</span>
      </h2>
      <dl className="facts">
        <dt>Job</dt>
        <dd>
          <a href={`#/jobs/${encodeURIComponent(item.jobId)}`}>{item.job.description || item.jobId}</a> <span className="muted small">{item.jobId}</span>
        </dd>
        <dt>Workflow</dt>
        <dd>{item.job.name}</dd>
        <dt>Waiting since</dt>
        <dd>
          {formatTime(item.queuedAt)} <span className="muted small">({ago(item.queuedAt)})</span>
        </dd>
        <dt>Assignee</dt>
        <dd>
          {item.assignee ? (
            <>
              {item.assignee} <span className="muted small">since {formatTime(item.claimedAt)}</span>
            </>
          ) : (
            <span className="muted">nobody</span>
          )}{' '}
          {item.assignee === operator ? (
            <button type="button" disabled={claim.isPending} onClick={() => claim.mutate('release')}>
              Release
            </button>
          ) : heldByOther ? (
            <button type="button" disabled={claim.isPending} onClick={() => claim.mutate('take-over')}>
              Take over
            </button>
          ) : (
            <button type="button" disabled={claim.isPending} onClick={() => claim.mutate('claim')}>
              Claim
            </button>
          )}
          {claim.isError && <Alert as="span"> {claim.error.message}</Alert>}
        </dd>
        {item.job.status === 'paused' && (
          <>
            <dt>Job</dt>
            <dd className="warn">paused: finishing the task records it; the job goes on when resumed</dd>
          </>
        )}
      </dl>
      <TaskSecrets item={item}>
        {heldByOther ? (
          <p className="banner">
            {item.assignee} has claimed this task: only they can finish it. Leave it to them, or take it over to finish it yourself (the job&apos;s history records the take-over).
          </p>
        ) : (
          <ManualTaskPanel
            key={item._id}
            jobId={item.jobId}
            taskId={item.taskId}
            name={item.name}
            app={item.app}
            incoming={item.incoming ?? {}}
            outgoing={item.outgoing}
            level={3}
            onFinished={(message) => onFinished(`${message} (job ${item.jobId})`)}
          />
        )}
        <details className="incoming-values">
          <summary>Incoming values</summary>
          <IncomingValues item={item} />
        </details>
      </TaskSecrets>
    </section>
  );
}

function FinishedTasks() {
  const history = useQuery({ queryKey: qk.worklistHistory(), queryFn: () => call('tasks.worklistHistory', { query: { limit: 50 } }), refetchInterval: 15_000 });
  const rows = history.data?.results ?? [];
  return (
    <section aria-labelledby="worklist-finished">
      <h2 id="worklist-finished">Finished by an operator</h2>
      {history.isError && <Alert>Cannot read the finished tasks: {history.error.message}</Alert>}
      {history.data && rows.length === 0 && <p className="muted">No manual task finished yet.</p>}
      {rows.length > 0 && (
        <table aria-label="Tasks finished by an operator">
          <thead>
            <tr>
              <th>Task</th>
              <th>Job and workflow</th>
              <th>Ended in</th>
              <th>By</th>
              <th>When</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={`${row.jobId}:${row.taskId}:${row.finishedAt}`}>
                <td>{row.summary ?? row.name ?? row.taskId}</td>
                <td>
                  <a href={`#/jobs/${encodeURIComponent(row.jobId)}`}>{row.jobId}</a>
                  {row.workflow && <div className="muted small">{row.workflow}</div>}
                </td>
                <td>{row.state}</td>
                <td>{row.operator}</td>
                <td className="small nowrap">
                  {formatTime(row.finishedAt)} <span className="muted">({ago(row.finishedAt)})</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function WorklistPage() {
  const route = useRoute();
  const selectedId = route.params.get('task') ?? undefined;
  const workflow = route.params.get('workflow') ?? undefined;
  const given = route.params.get('view');
  const view: View = given === 'mine' || given === 'unassigned' ? given : 'all';
  const [notice, setNotice] = useState('');
  const list = useQuery({
    queryKey: qk.worklist(workflow, view),
    queryFn: () => call('tasks.worklist', { query: { workflow, view, limit: 500 } }),
    refetchInterval: 5000,
  });
  const items = list.data?.results ?? [];
  const selected = items.find((i) => i._id === selectedId) ?? items[0];
  const params = { workflow, view: view === 'all' ? undefined : view };
  const select = (id: string) => replaceParams({ ...params, task: id });
  return (
    <section aria-label="Work queue">
      <h1>Work queue</h1>
      <p className="muted">Manual tasks waiting for an operator, oldest first. Claim one so others see you have it; finish it here and its job goes on at once.</p>
      <nav aria-label="Work queue views" className="view-tabs">
        {VIEWS.map((v) => (
          <button key={v.view} type="button" aria-pressed={view === v.view} className={view === v.view ? 'selected' : undefined} onClick={() => replaceParams({ workflow, view: v.view === 'all' ? undefined : v.view })}>
            {v.label} {list.data && <span className="small">({list.data.counts[v.view]})</span>}
          </button>
        ))}
        {list.data && <span className="muted small">you are {list.data.operator}</span>}
      </nav>
      {workflow && (
        <p>
          Workflow <strong>{workflow}</strong> only · <a href="#/worklist">show every workflow</a>
        </p>
      )}
      {notice && (
        <p className="good" role="status">
          {notice}
        </p>
      )}
      {list.isPending && <p>Loading the work queue…</p>}
      {list.isError && <Alert>Cannot read the work queue: {list.error.message}</Alert>}
      {list.data && items.length === 0 && (
        <p className="muted">{view === 'mine' ? 'You have claimed no waiting task.' : view === 'unassigned' ? 'Every waiting task is claimed.' : 'No task is waiting for an operator.'}</p>
      )}
      {list.data && items.length > 0 && (
        <div className="split">
          <div className="split-list">
            <p className="muted small" aria-live="polite">
              {list.data.total.toLocaleString()} task{list.data.total === 1 ? '' : 's'} waiting
            </p>
            <table aria-label="Tasks waiting for an operator" className="worklist-table">
              <thead>
                <tr>
                  <th>Task and assignee</th>
                  <th>Job and workflow</th>
                  <th>Waiting</th>
                </tr>
              </thead>
              <tbody>
                {items.map((item) => (
                  <tr key={item._id} className={item._id === selected?._id ? 'selected' : undefined} aria-selected={item._id === selected?._id}>
                    <td>
                      <button type="button" className="link" onClick={() => select(item._id)} aria-label={`${item.summary ?? item.name}: task ${item.taskId} of ${item.job.description || item.jobId}`}>
                        {item.summary ?? item.name}
                      </button>
                      <div className="muted small">{item.assignee ? `claimed by ${item.assignee}` : 'unassigned'}</div>
                    </td>
                    <td className="cell-clip">
                      {item.job.description || item.jobId}
                      <div className="muted small cell-clip">{item.job.name}</div>
                    </td>
                    <td className="small nowrap">{ago(item.queuedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {selected && <Detail item={selected} operator={list.data.operator} onFinished={setNotice} />}
        </div>
      )}
      <FinishedTasks />
    </section>
  );
}
