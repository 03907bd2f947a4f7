// One workflow: its tasks (method, app, type, variables) and its transitions.
import { useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { RESERVED_TASK_IDS, type StoredWorkflow, type WorkflowProblem } from '../../core/contract/workflows';
import { call } from '../api/client';
import { WorkflowDiagram } from '../diagrams/WorkflowDiagram';
import { localDateTime } from '../shell/dates';
import { flaggedTasks, useWorkflowNeeds, WorkflowNeedsPanel } from './WorkflowNeeds';
import type { MissingPart } from '../../core/contract/workflows';
import { qk } from '../api/keys';

function Json({ value }: { value: unknown }) {
  if (value === undefined) return <span className="muted">none</span>;
  return <code className="json-inline">{JSON.stringify(value)}</code>;
}

function Variables({ vars }: { vars: Record<string, unknown> | undefined }) {
  const entries = Object.entries(vars ?? {});
  if (entries.length === 0) return <span className="muted">none</span>;
  return (
    <ul className="plain-list">
      {entries.map(([name, value]) => (
        <li key={name}>
          <code>{name}</code> = <Json value={value} />
        </li>
      ))}
    </ul>
  );
}

export function WorkflowDetails({ workflow, flagged }: { workflow: StoredWorkflow; flagged?: Set<string> }) {
  const tasks = Object.entries(workflow.tasks).filter(([id]) => !(RESERVED_TASK_IDS as readonly string[]).includes(id));
  const [open, setOpen] = useState<string>();
  const shown = open ? workflow.tasks[open] : undefined;
  const transitions = Object.entries(workflow.transitions).flatMap(([src, targets]) =>
    Object.entries(targets).map(([dst, t]) => ({ src, dst, state: t.state, type: t.type })),
  );
  return (
    <>
      <dl className="facts">
        <dt>Description</dt>
        <dd>{workflow.description ?? <span className="muted">none</span>}</dd>
        <dt>Created</dt>
        <dd>{localDateTime(workflow.created)}</dd>
        <dt>Last updated</dt>
        <dd>{localDateTime(workflow.lastUpdated)}</dd>
      </dl>
      <WorkflowDiagram workflow={workflow} flagged={flagged} onTaskClick={setOpen} label={`Diagram of workflow ${workflow.name}`} />
      {open && shown && (
        <div className="diagram-detail" role="region" aria-label={`Task ${open} detail`}>
          <div className="page-header">
            <h3>
              {shown.summary ?? shown.name} <span className="muted small">task {open}</span>
            </h3>
            <button type="button" onClick={() => setOpen(undefined)}>
              Close
            </button>
          </div>
          <p>
            {shown.app} · {shown.name} · {shown.type}
            {flagged?.has(open) && <span className="bad"> · needs a missing part</span>}
          </p>
          <h4>Incoming</h4>
          <Variables vars={shown.variables?.incoming} />
          <h4>Outgoing</h4>
          <Variables vars={shown.variables?.outgoing} />
        </div>
      )}
      <h2>Tasks</h2>
      {tasks.length === 0 ? (
        <p className="muted">This workflow has no tasks between workflow_start and workflow_end.</p>
      ) : (
        <table aria-label="Tasks">
          <thead>
            <tr>
              <th>Task</th>
              <th>Method</th>
              <th>App</th>
              <th>Type</th>
              <th>Incoming</th>
              <th>Outgoing</th>
            </tr>
          </thead>
          <tbody>
            {tasks.map(([id, task]) => (
              <tr key={id}>
                <td>
                  <code>{id}</code>
                  {task.summary && <div className="muted">{task.summary}</div>}
                </td>
                <td>{task.name}</td>
                <td>
                  {task.app}
                  {task.location && <span className="muted"> ({task.location})</span>}
                </td>
                <td>{task.type}</td>
                <td>
                  <Variables vars={task.variables?.incoming} />
                </td>
                <td>
                  <Variables vars={task.variables?.outgoing} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Transitions</h2>
      {transitions.length === 0 ? (
        <p className="muted">No transitions.</p>
      ) : (
        <table aria-label="Transitions">
          <thead>
            <tr>
              <th>From</th>
              <th>To</th>
              <th>On</th>
            </tr>
          </thead>
          <tbody>
            {transitions.map((t) => (
              <tr key={`${t.src}-${t.dst}`}>
                <td>
                  <code>{t.src}</code>
                </td>
                <td>
                  <code>{t.dst}</code>
                </td>
                <td>
                  <span className={`badge ${t.state === 'success' ? 'good' : t.state === 'error' ? 'bad' : 'warn'}`}>{t.state}</span>
                  {t.type === 'revert' && <span className="muted"> (revert: back to an earlier task)</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {workflow.inputSchema && (
        <>
          <h2>Input schema</h2>
          <pre className="json-block">{JSON.stringify(workflow.inputSchema, null, 2)}</pre>
        </>
      )}
    </>
  );
}

/** What the console doubts about the workflow (the service saves it as it is): shown, never a refusal. */
function WorkflowWarnings({ warnings }: { warnings: WorkflowProblem[] }) {
  if (warnings.length === 0) return null;
  return (
    <div className="banner" role="region" aria-label="Workflow warnings">
      <p>
        {warnings.length === 1 ? '1 warning' : `${warnings.length} warnings`}: the workflow is saved, but a job of it may not run as
        expected.
      </p>
      <ul aria-label="Warnings">
        {warnings.map((warning) => (
          <li key={`${warning.path}\u0000${warning.message}`}>{warning.message}</li>
        ))}
      </ul>
    </div>
  );
}

export function WorkflowView({ name, actions }: { name: string; actions?: (workflow: StoredWorkflow, needs: MissingPart[] | undefined) => ReactNode }) {
  const query = useQuery({ queryKey: qk.workflow(name), queryFn: () => call('workflows.get', { params: { name } }) });
  const { needs, error } = useWorkflowNeeds(name);
  return (
    <section>
      <p>
        <a href="#/workflows">← All workflows</a>
      </p>
      <h1>Workflow “{name}”</h1>
      {query.isPending && <p>Loading the workflow…</p>}
      {query.isError && <p className="error">Cannot read workflow “{name}”: {query.error.message}</p>}
      {query.data && (
        <>
          {/* Start first: what is missing follows, compact (grouped, folded past a few), so Start and the diagram stay in view. */}
          {actions?.(query.data, needs)}
          {needs && <WorkflowNeedsPanel name={name} needs={needs} workflow={query.data} />}
          {error && <p className="error">Cannot read what it needs: {error}</p>}
          <WorkflowWarnings warnings={query.data.warnings ?? []} />
          <WorkflowDetails workflow={query.data} flagged={needs && needs.length ? flaggedTasks(query.data, needs) : undefined} />
        </>
      )}
    </section>
  );
}
