// The DR Drill page: a lab drill (two consoles started on this machine) or a drill between two
// sites given by URL and token, its options, the run with a live timeline, the readiness
// checklist, the report (with HTML, JSON and, in the desktop app, PDF export) and the history.
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import { useRoute } from '../shell/route';
import { DrillReportView } from './DrillReportView';
import { SitesForm } from './SitesForm';
import { RunOptionsFields, runOptionsBody, useRunOptions } from './RunOptions';
import { Alert } from '../shell/Alert';
import { qk, refreshAfter } from '../api/keys';
import { useWorkflowList } from '../workflows/useWorkflowList';

export function DrillsPage() {
  const queryClient = useQueryClient();
  const [options, setOptions] = useRunOptions<'kill' | 'stop'>('kill');
  const [mongoUrl, setMongoUrl] = useState('');
  const [mode, setMode] = useState<'lab' | 'sites'>('lab');
  // The profile's own workflows the lab runs instead of its ledger workflow (none: the ledger workflow).
  const [workflows, setWorkflows] = useState<string[]>([]);
  const profileWorkflows = useWorkflowList();
  // `#/drills/<id>` opens that drill's report (the Overview's last-drill card links here).
  const linked = useRoute().segments[1];
  const [chosenId, setOpenId] = useState<string>();
  const openId = chosenId ?? linked;
  const history = useQuery({ queryKey: qk.drills(), queryFn: () => call('drills.list'), refetchInterval: 5_000 });
  const start = useMutation({
    mutationFn: () => call('drills.startLab', { body: { ...runOptionsBody(options), ...(mongoUrl.trim() ? { mongoUrl: mongoUrl.trim() } : {}), ...(workflows.length ? { workflows } : {}) } }),
    onSuccess: (report) => {
      setOpenId(report.id);
      void refreshAfter(queryClient, 'drills');
    },
  });
  return (
    <div className="drills-page">
      <h1>DR Drill</h1>
      <p>
        Rehearse a failover as the service's Manual Failover procedure describes it: a <strong>lab</strong> starts two headless consoles on
        this machine (the active site, and a standby with <code>processTasksOnStart: false</code>), both on one database; it checks they are
        ready, loads jobs whose tasks record each side effect in a ledger, fails the active site, starts the task worker and applications on
        the standby, and verifies that no task was lost or completed twice. A <strong>sites</strong> drill does the same between two consoles
        you name (this console, or others by URL and API token) on one database.
      </p>
      <fieldset className="drill-mode">
        <legend>Drill</legend>
        <label>
          <input type="radio" name="drill-mode" checked={mode === 'lab'} onChange={() => setMode('lab')} /> Lab: two consoles started on this machine
        </label>{' '}
        <label>
          <input type="radio" name="drill-mode" checked={mode === 'sites'} onChange={() => setMode('sites')} /> Sites: this console or others, by URL and token
        </label>
      </fieldset>
      {mode === 'sites' && (
        <section aria-label="Sites drill">
          <h2>Sites</h2>
          <SitesForm
            onStarted={(report) => {
              setOpenId(report.id);
              void refreshAfter(queryClient, 'drills');
            }}
          />
        </section>
      )}
      {mode === 'lab' && (
        <section aria-label="Lab drill">
          <h2>Sites</h2>
          <ul>
            <li>Active: a headless console started for the drill, working tasks.</li>
            <li>Standby: a headless console started for the drill, its task worker stopped.</li>
            <li>Database: {mongoUrl.trim() ? 'the MongoDB below' : 'one embedded database file shared by both (embeddedProps.file)'}</li>
          </ul>
          <form
            className="drill-options"
            onSubmit={(event) => {
              event.preventDefault();
              start.mutate();
            }}
          >
            <RunOptionsFields
              value={options}
              onChange={setOptions}
              failures={[
                { value: 'kill', label: 'kill -9 of the active site' },
                { value: 'stop', label: 'stop its worker and applications' },
              ]}
            />
            <label>
              Workflows to run (optional: the lab copies them, simulates the adapters they lack and runs them instead of its ledger workflow){' '}
              <select multiple value={workflows} onChange={(e) => setWorkflows([...e.target.selectedOptions].map((o) => o.value))}>
                {(profileWorkflows.data?.items ?? []).map((w) => (
                  <option key={w.name} value={w.name}>
                    {w.name}
                  </option>
                ))}
              </select>
            </label>{' '}
            <label>
              MongoDB URL (optional) <input value={mongoUrl} onChange={(e) => setMongoUrl(e.target.value)} placeholder="mongodb://host:27017" />
            </label>{' '}
            <button type="submit" disabled={start.isPending}>
              {start.isPending ? 'Starting the lab…' : 'Run lab drill'}
            </button>
            {start.isError && <Alert>{start.error.message}</Alert>}
          </form>
        </section>
      )}
      {openId && <DrillReportView id={openId} />}
      <section aria-label="Drill history">
        <h2>History</h2>
        {history.isError && <p className="error">Cannot read the drill history: {history.error.message}</p>}
        {history.data && history.data.results.length === 0 && <p>No drill yet.</p>}
        {history.data && history.data.results.length > 0 && (
          <table>
            <thead>
              <tr>
                <th>Started</th>
                <th>Kind</th>
                <th>Failure</th>
                <th>Jobs</th>
                <th>Result</th>
                <th>RTO</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {history.data.results.map((r) => (
                <tr key={r.id}>
                  <td>{new Date(r.startedAt).toLocaleString()}</td>
                  <td>{r.kind}</td>
                  <td>{r.failure}</td>
                  <td>{r.jobs}</td>
                  <td>{r.status === 'running' ? 'running' : r.passed ? 'passed' : 'failed'}</td>
                  <td>{r.rtoMs === null ? '—' : `${(r.rtoMs / 1000).toFixed(2)} s`}</td>
                  <td>
                    <button type="button" onClick={() => setOpenId(r.id)}>
                      Open report
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}
