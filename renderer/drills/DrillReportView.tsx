// One drill: the live timeline while it runs (polled), then its report: pass/fail, RTO, drain
// time, counts, the readiness checklist with fixes, both sites' properties, and exports.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { call } from '../api/client';
import { Alert } from '../shell/Alert';
import { qk } from '../api/keys';
import { DrillTimelineChart } from './DrillTimelineChart';

const seconds = (ms: number | null | undefined) => (ms === null || ms === undefined ? '—' : `${(ms / 1000).toFixed(2)} s`);

async function download(id: string, format: 'html' | 'json') {
  const file = await call('drills.export', { params: { id }, query: { format } });
  const url = URL.createObjectURL(new Blob([file.content], { type: file.contentType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.filename;
  link.click();
  URL.revokeObjectURL(url);
}

/** In the desktop app the preload offers what only the app can do (saving a PDF). */
interface Desktop {
  saveDrillPdf(id: string): Promise<{ ok: true; data: { saved: boolean; path?: string } } | { ok: false; error: { message: string } }>;
}
const desktop = () => (typeof window === 'undefined' ? undefined : (window as { consoleApi?: { desktop?: Desktop } }).consoleApi?.desktop);

function SavePdf({ id }: { id: string }) {
  const [state, setState] = useState<string>();
  const app = desktop();
  if (!app) return null;
  return (
    <>
      {' '}
      <button
        type="button"
        onClick={() => {
          setState('Printing the report…');
          void app.saveDrillPdf(id).then(
            (reply) => setState(reply.ok ? (reply.data.saved ? `Saved ${reply.data.path}` : undefined) : `Cannot save the PDF: ${reply.error.message}`),
            (error: Error) => setState(`Cannot save the PDF: ${error.message}`),
          );
        }}
      >
        Save as PDF
      </button>
      {state && <span role="status"> {state}</span>}
    </>
  );
}

export function DrillReportView({ id }: { id: string }) {
  const drill = useQuery({
    queryKey: qk.drill(id),
    queryFn: () => call('drills.get', { params: { id } }),
    refetchInterval: (query) => (query.state.data?.status === 'running' ? 1_000 : false),
  });
  if (drill.isPending) return <p>Reading drill {id}…</p>;
  if (drill.isError) return <p className="error">Cannot read drill {id}: {drill.error.message}</p>;
  const r = drill.data;
  return (
    <section aria-label="Drill report" className="drill-report">
      <h2>
        Drill report{' '}
        {r.status === 'running' ? (
          <span className="badge" role="status">running…</span>
        ) : (
          <span className={`badge ${r.passed ? 'good' : 'bad'}`}>{r.passed ? 'Passed' : 'Failed'}</span>
        )}
      </h2>
      {r.error && <Alert>{r.error}</Alert>}
      {r.leftAs && <p>{r.leftAs}</p>}
      <dl className="drill-figures">
        <dt>RTO (failure → first task completed on the standby)</dt>
        <dd>
          {seconds(r.rtoMs)} (target {seconds(r.targets.rtoMs)}, lease {seconds(r.leaseMs)})
        </dd>
        <dt>Drain time</dt>
        <dd>
          {seconds(r.drainMs)} (target {seconds(r.targets.drainMs)})
        </dd>
        {r.load === 'workflows' && (
          <>
            <dt>Load</dt>
            <dd>
              {(r.workflows ?? []).map((w) => `"${w}"`).join(', ')} on simulated instances; simulated calls:{' '}
              {(r.simulatedCalls ?? []).map((c) => `${c.instance}.${c.method} ${c.calls}`).join(', ') || 'none yet'}
            </dd>
          </>
        )}
        <dt>Jobs complete</dt>
        <dd>
          {r.jobsCompleted} / {r.jobs}
        </dd>
        <dt>Tasks lost</dt>
        <dd>{r.tasksLost}</dd>
        <dt>Task records completed twice</dt>
        <dd>{r.taskRecordsCompletedTwice}</dd>
        <dt>Side effects repeated</dt>
        <dd>
          {r.sideEffectsRepeated} of {r.sideEffects} (at-least-once: tasks in flight when the active site failed ran again)
        </dd>
      </dl>
      <h3>Timeline</h3>
      <DrillTimelineChart report={r} />
      <ol aria-label="Timeline">
        {r.steps.map((s) => (
          <li key={s.name + s.startedAt}>
            <time>{new Date(s.startedAt).toLocaleTimeString()}</time> {s.endedAt === null ? '…' : s.ok ? '✓' : '✗'} {s.name}
            {s.endedAt !== null && ` (${seconds(s.endedAt - s.startedAt)})`}
            {(s.error ?? s.detail) && <div className={s.error ? 'error' : 'muted'}>{s.error ?? s.detail}</div>}
          </li>
        ))}
      </ol>
      <h3>Readiness checklist</h3>
      {r.readiness.length === 0 && <p>Not checked yet.</p>}
      <ul aria-label="Readiness checklist">
        {r.readiness.map((i) => (
          <li key={i.id}>
            <span className={`badge ${i.state === 'pass' ? 'good' : i.state === 'fail' ? 'bad' : i.state === 'warn' ? 'warn' : ''}`}>{i.state}</span> {i.title}: {i.detail}
            {i.fix && <div>Fix: {i.fix}</div>}
          </li>
        ))}
      </ul>
      {r.sites.length > 0 && (
        <>
          <h3>Sites</h3>
          {r.sites.map((s) => (
            <details key={s.name}>
              <summary>
                {s.name}: {s.serverName} ({s.url})
              </summary>
              {(s.changes ?? []).length > 0 && (
                <ul aria-label={`Changes to ${s.name}`}>
                  {s.changes!.map((c) => (
                    <li key={c}>{c}</li>
                  ))}
                </ul>
              )}
              <pre>{JSON.stringify(s.properties, null, 2)}</pre>
            </details>
          ))}
        </>
      )}
      {r.status !== 'running' && (
        <p>
          <button type="button" onClick={() => void download(r.id, 'html')}>
            Export HTML
          </button>{' '}
          <button type="button" onClick={() => void download(r.id, 'json')}>
            Export JSON
          </button>
          <SavePdf id={r.id} />
        </p>
      )}
    </section>
  );
}
