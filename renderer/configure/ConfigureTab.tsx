// The Configure tab of the active profile: whether this server works tasks when it
// starts (processTasksOnStart, saved in properties.json: the worker's startup value,
// which the status bar, attention and the profile list show at once), starting or
// stopping the task worker now (a separate fact: a save does not start or stop it),
// and every server working tasks on the same database, so a DR operator sees whether
// one or two sites work.
import { useEffect, useState } from 'react';
import { useUnsavedChanges } from '../shell/unsaved';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import { ConfirmAction } from '../components/ConfirmAction';
import { useStatus } from '../shell/useStatus';
import { ago, formatTime } from '../jobs/format';
import { Alert } from '../shell/Alert';
import { qk, refreshAfter } from '../api/keys';


function StartupSetting({ profileId }: { profileId: string }) {
  const client = useQueryClient();
  const profile = useQuery({ queryKey: qk.profile(profileId), queryFn: () => call('profiles.get', { params: { id: profileId } }) });
  const saved = (profile.data?.profile as { processTasksOnStart?: boolean } | undefined)?.processTasksOnStart !== false;
  const [value, setValue] = useState<boolean | undefined>(undefined);
  useEffect(() => setValue(undefined), [saved]);
  const current = value ?? saved;
  const save = useMutation({
    mutationFn: async (next: boolean) => {
      const fresh = await call('profiles.get', { params: { id: profileId } });
      // profiles.update replaces the file: send it whole (masked secrets keep their stored value).
      return call('profiles.update', { params: { id: profileId }, body: { ...(fresh.profile as Record<string, unknown>), processTasksOnStart: next } });
    },
    onSuccess: () => {
      void refreshAfter(client, 'profiles');
    },
  });
  useUnsavedChanges(current !== saved, 'the startup setting');
  if (profile.isPending) return <p>Loading the profile…</p>;
  if (profile.isError) return <p className="error">Cannot read profile {profileId}: {profile.error.message}</p>;
  return (
    <fieldset className="configure-section">
      <legend>At startup</legend>
      <label>
        <input type="checkbox" checked={current} onChange={(e) => setValue(e.target.checked)} /> Work tasks when the server starts
        (<code>processTasksOnStart</code>)
      </label>
      <p className="muted small">
        Saved in this profile's properties.json: whether the task worker starts with the console (and with WorkFlowEngine). Saving does not
        start or stop the worker now: that is below. Turn it off on a disaster-recovery standby.
      </p>
      <div className="form-actions">
        <button type="button" className="primary" disabled={current === saved || save.isPending} onClick={() => save.mutate(current)}>
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
        {save.isSuccess && current === saved && (
          <span className="good">Saved: the task worker {saved ? 'works' : 'does not work'} tasks at startup. Whether it runs now is below.</span>
        )}
        {save.isError && <span className="error">{save.error.message}</span>}
      </div>
    </fieldset>
  );
}

function WorkerNow() {
  const client = useQueryClient();
  const status = useQuery({ queryKey: qk.workers(), queryFn: () => call('workers.status'), refetchInterval: 2000 });
  const toggle = useMutation({
    mutationFn: (start: boolean) => call(start ? 'workers.activateTaskWorker' : 'workers.deactivateTaskWorker'),
    onSuccess: (data) => {
      client.setQueryData(qk.workers(), data);
      // The status bar's running state and attention's role check change with it: read them again now.
      void refreshAfter(client, 'worker');
    },
  });
  if (status.isPending) return <p>Loading the task worker's status…</p>;
  if (status.isError) return <p className="error">Cannot read the task worker's status: {status.error.message}</p>;
  const { taskWorker, servers } = status.data;
  const working = servers.filter((s) => s.alive && s.taskWorker);
  return (
    <>
      <fieldset className="configure-section">
        <legend>Now</legend>
        <p>
          Task worker on this server:{' '}
          <strong className={taskWorker.running ? 'good' : 'muted'} aria-label="Task worker state">
            {taskWorker.running ? 'running' : 'stopped'}
          </strong>
          <span className="muted small" aria-label="Task worker at startup">
            {' '}
            (at startup: {taskWorker.startupValue ? 'works tasks' : 'does not work tasks'})
          </span>
        </p>
        <div className="form-actions">
          {taskWorker.running ? (
            <ConfirmAction
              label="Stop the task worker"
              disabled={toggle.isPending}
              title="Stop the task worker on this server?"
              confirmLabel="Yes, stop it"
              cancelLabel="Keep it working"
              action={() => toggle.mutateAsync(false)}
            >
              <p>This server stops working tasks now, until its next start: its running tasks go back to the queue for another server, and queued tasks wait if no other server works them.</p>
            </ConfirmAction>
          ) : (
            <button type="button" className="primary" disabled={toggle.isPending} onClick={() => toggle.mutate(true)}>
              Start the task worker
            </button>
          )}
          <span className="muted small">Takes effect now, until the next start; stopping hands running tasks back to the queue.</span>
          {toggle.isSuccess && toggle.variables === false && !taskWorker.running && (
            <span role="status" className="action-result small">
              Task worker stopped: Start the task worker to work the queue again.
            </span>
          )}
          {toggle.isError && <span className="error">{toggle.error.message}</span>}
        </div>
      </fieldset>
      <section>
        <h3>Servers working tasks on this database</h3>
        {working.length > 1 && (
          <Alert look="warning">
            {working.length} servers are working tasks on this database. If one of them is a disaster-recovery standby, stop its worker.
          </Alert>
        )}
        {working.length === 0 && <p className="banner">No server is working tasks on this database: queued tasks wait.</p>}
        <table aria-label="Servers working tasks">
          <thead>
            <tr>
              <th>Server</th>
              <th>Server id</th>
              <th>Task worker</th>
              <th>Last heartbeat</th>
            </tr>
          </thead>
          <tbody>
            {servers.map((s) => (
              <tr key={s.serverId}>
                <td>
                  {s.serverName} {s.self && <span className="badge">this server</span>}
                </td>
                <td className="muted small">{s.serverId}</td>
                <td>{!s.alive ? <span className="muted">not seen lately</span> : s.taskWorker ? <span className="good">working tasks</span> : <span className="muted">not working tasks</span>}</td>
                <td title={formatTime(s.heartbeatAt)}>{ago(s.heartbeatAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}

export function ConfigureTab() {
  const status = useStatus();
  if (status.isPending) return <p>Loading…</p>;
  if (status.isError) return <p className="error">Cannot read the console's status: {status.error.message}</p>;
  return (
    <section aria-label="Configure">
      <h2>Task worker</h2>
      <StartupSetting profileId={status.data.profile} />
      <WorkerNow />
    </section>
  );
}
