// "Rehearse on this console's workflows": every workflow of the active profile runs under the release
// the site upgrades from and under 2022.1 in a scratch store (POST /upgrade/rehearsals); the
// workflows whose run changes are listed with the first task where it does, both values side by side.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { REHEARSAL_FROM, type Rehearsal as RehearsalRun, type RehearsalReport, type RehearsalTaskState } from '../../core/contract/rehearsal';
import { call } from '../api/client';
import { WorkflowDiagram } from '../diagrams/WorkflowDiagram';
import { Alert } from '../shell/Alert';
import { qk } from '../api/keys';

type From = (typeof REHEARSAL_FROM)[number];
const isRun = (value: RehearsalReport | RehearsalRun): value is RehearsalRun => 'id' in value && 'state' in value;

export function Rehearsal() {
  const [from, setFrom] = useState<From>('2021.2');
  const start = useMutation({ mutationFn: (release: From) => call('upgrade.rehearse', { body: { all: true, from: release } }) });
  const started = start.data && isRun(start.data) ? start.data : undefined;
  const run = useQuery({
    queryKey: qk.rehearsal(started?.id),
    queryFn: () => call('upgrade.rehearsal', { params: { id: started!.id } }),
    enabled: Boolean(started),
    refetchInterval: (query) => (query.state.data?.state === 'running' || !query.state.data ? 500 : false),
  });
  const cancel = useMutation({ mutationFn: (id: string) => call('upgrade.rehearsalCancel', { params: { id } }), onSuccess: () => void run.refetch() });
  const current = run.data ?? started;
  const report = start.data && !isRun(start.data) ? start.data : current?.report;
  const running = start.isPending || current?.state === 'running';
  return (
    <section className="upgrade-rehearsal" aria-label="Rehearsal">
      <h2>Rehearse the upgrade</h2>
      <p className="muted">
        Runs each of this console's workflows twice, under the release the site upgrades from and under 2022.1, in a scratch store (the profile's
        store is only read), with adapter tasks answered by simulated instances. Inputs are built from each workflow's inputSchema.
      </p>
      <label>
        Upgrading from{' '}
        <select value={from} onChange={(e) => setFrom(e.target.value as From)}>
          {REHEARSAL_FROM.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </label>{' '}
      <button type="button" className="primary" disabled={running} onClick={() => start.mutate(from)}>
        Rehearse on this console's workflows
      </button>{' '}
      {running && started && (
        <button type="button" onClick={() => cancel.mutate(started.id)} disabled={cancel.isPending}>
          Cancel
        </button>
      )}
      {running && (
        <div role="status" aria-label="Rehearsal progress" className="upgrade-progress">
          <span className="spinner" />{' '}
          {current && current.total > 0 ? (
            <>
              <progress max={current.total} value={current.done} /> Ran {current.done} of {current.total} workflows
              {current.workflow && (
                <>
                  : <code>{current.workflow}</code>
                </>
              )}
            </>
          ) : (
            'Running the workflows…'
          )}
        </div>
      )}
      {start.isError && <Alert>The rehearsal could not start: {start.error.message}</Alert>}
      {current?.state === 'failed' && <Alert>The rehearsal failed: {current.error}</Alert>}
      {current?.state === 'canceled' && <p role="status">The rehearsal was canceled; its scratch store is removed.</p>}
      {cancel.isError && <Alert>The rehearsal could not be canceled: {cancel.error.message}</Alert>}
      {report && !start.isPending && <RehearsalResult report={report} />}
    </section>
  );
}

function download(name: string, type: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
}

const json = (value: unknown) => JSON.stringify(value, null, 2) ?? 'undefined';

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

/** The report as one self-contained HTML page, as the drill's report exports. */
function reportHtml(report: RehearsalReport): string {
  const rows = report.differ
    .map((d) => {
      const cell = (state: RehearsalTaskState) => `<td>${escape(describeState(state))}<pre>${escape(json(state.outgoing))}</pre>${state.error ? `<p>${escape(state.error)}</p>` : ''}</td>`;
      return `<tr><td>${escape(d.workflow)}<br>job: ${escape(d.outcome.before.status)} → ${escape(d.outcome.after.status)}</td><td>${escape(d.firstDivergence.task)} (${escape(d.firstDivergence.differs.join(', '))})</td>${cell(d.firstDivergence.before)}${cell(d.firstDivergence.after)}</tr>`;
    })
    .join('');
  const notRun = report.couldNotRun.map((c) => `<li>${escape(c.workflow)}: ${escape(c.why)}</li>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Upgrade rehearsal ${report.from} to ${report.to}</title></head><body>
<h1>Upgrade rehearsal from ${report.from} to ${report.to}</h1>
<p>${report.workflows} workflows: ${report.same} the same, ${report.differ.length} differ, ${report.couldNotRun.length} could not run. Undefined values show as "~4undefined".</p>
<table border="1"><tr><th>Workflow</th><th>First divergence</th><th>Under ${report.from}</th><th>Under ${report.to}</th></tr>${rows}</table>
${notRun ? `<h2>Could not run</h2><ul>${notRun}</ul>` : ''}</body></html>`;
}

function describeState(state: RehearsalTaskState): string {
  if (!state.reached) return 'not reached';
  const transition = state.transition?.length ? ` → ${state.transition.join(', ')}` : '';
  return `${state.status ?? ''}${state.finishState ? ` (${state.finishState})` : ''}${transition}`;
}

/** The differing workflow drawn with its first divergence marked. */
function DivergenceDiagram({ workflow, task }: { workflow: string; task: string }) {
  const doc = useQuery({ queryKey: qk.workflow(workflow), queryFn: () => call('workflows.get', { params: { name: workflow } }) });
  if (doc.isError) return <Alert>Cannot read workflow {workflow}: {doc.error.message}</Alert>;
  if (!doc.data) return <p className="muted">Loading the diagram of {workflow}…</p>;
  return (
    <WorkflowDiagram
      workflow={doc.data}
      overlay={{ [task]: { status: { word: 'diverges here', tone: 'bad' }, iterations: 1 } }}
      label={`Diagram of workflow ${workflow}, first divergence at task ${task}`}
      focus={task}
      height={320}
    />
  );
}

function RehearsalResult({ report }: { report: RehearsalReport }) {
  const [shown, setShown] = useState<{ workflow: string; task: string }>();
  return (
    <div className="upgrade-report">
      <p role="status" aria-label="Rehearsal summary" className={report.differ.length ? 'bad' : 'good'}>
        {report.workflows} workflow{report.workflows === 1 ? '' : 's'} rehearsed from {report.from} to {report.to}: {report.same} the same,{' '}
        {report.differ.length} differ{report.differ.length === 1 ? 's' : ''}
        {report.couldNotRun.length ? `, ${report.couldNotRun.length} could not run` : ''}.
      </p>
      <button type="button" onClick={() => download(`rehearsal-${report.from}-to-${report.to}.json`, 'application/json', json(report))}>
        Export JSON
      </button>{' '}
      <button type="button" onClick={() => download(`rehearsal-${report.from}-to-${report.to}.html`, 'text/html', reportHtml(report))}>
        Export HTML
      </button>
      {report.differ.length > 0 && (
        <table aria-label="Workflows that differ">
          <thead>
            <tr>
              <th>Workflow</th>
              <th>First divergence</th>
              <th>Under {report.from}</th>
              <th>Under {report.to}</th>
            </tr>
          </thead>
          <tbody>
            {report.differ.map((d) => (
              <tr key={d.workflow}>
                <td>
                  {d.workflow}
                  <div className="muted">
                    job: {d.outcome.before.status} → {d.outcome.after.status}
                  </div>
                </td>
                <td>
                  task <code>{d.firstDivergence.task}</code> <span className="muted">({d.firstDivergence.differs.join(', ')})</span>{' '}
                  <button type="button" onClick={() => setShown({ workflow: d.workflow, task: d.firstDivergence.task })}>
                    Show on the diagram
                  </button>
                </td>
                {[d.firstDivergence.before, d.firstDivergence.after].map((state, i) => (
                  <td key={i}>
                    <div>{describeState(state)}</div>
                    {state.reached && <pre>{json(state.outgoing)}</pre>}
                    {state.error && <div className="bad">{state.error}</div>}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {shown && <DivergenceDiagram workflow={shown.workflow} task={shown.task} />}
      {report.couldNotRun.length > 0 && (
        <section aria-label="Could not run">
          <h3>Could not run</h3>
          <ul>
            {report.couldNotRun.map((c) => (
              <li key={c.workflow}>
                <code>{c.workflow}</code>: {c.why}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
