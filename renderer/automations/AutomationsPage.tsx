// The Automations page: Operations Manager's automations of the active profile, each with its
// triggers (an endpoint trigger's route, a manual trigger's Run button) and the last jobs of its
// workflow; create, edit and delete automations and triggers. `#/automations`.
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import type { AutomationOverview, Trigger } from '../../core/contract/automations';
import { Alert } from '../shell/Alert';
import { localDateTime } from '../shell/dates';
import { DeleteButton } from '../shell/DeleteButton';
import { StatusBadge } from '../shell/StatusBadge';
import { jobStatus } from '../shell/status';
import { AutomationForm, TriggerForm } from './AutomationForm';
import { ManualRun } from './ManualRun';
import { qk, refreshAfter } from '../api/keys';

const REFRESH_MS = 3000;

/** A schedule in words: its repeat (`every 1 day`, `once`) and the run it waits for. */
function scheduleText(trigger: Trigger): string {
  const interval = typeof trigger.repeatInterval === 'number' ? trigger.repeatInterval : 0;
  const units: [number, string][] = [[604_800_000, 'week'], [86_400_000, 'day'], [3_600_000, 'hour'], [60_000, 'minute']];
  const [size, unit] = units.find(([ms]) => interval > 0 && interval % ms === 0) ?? [0, ''];
  const repeat = interval > 0 && size ? `every ${interval / size} ${unit}${interval / size === 1 ? '' : 's'}` : interval > 0 ? `every ${interval} ms` : 'once';
  const next = typeof trigger.nextRunAt === 'number' ? `next run ${localDateTime(trigger.nextRunAt)}` : trigger.nextRunAt === null ? 'no run left' : 'next run not set yet';
  return `${repeat} · ${next}`;
}

function TriggerLine({ trigger, automation }: { trigger: Trigger; automation: string }) {
  const queryClient = useQueryClient();
  const refresh = () => void refreshAfter(queryClient, 'automations');
  return (
    <li aria-label={`Trigger ${trigger.name}`}>
      <strong>{trigger.name}</strong> <span className="badge">{trigger.type}</span>{' '}
      {!trigger.enabled && <span className="badge warn">disabled</span>}
      {trigger.type === 'endpoint' && (
        <code className="small">
          {' '}
          {trigger.verb ?? 'POST'} /operations-manager/triggers/endpoint/{trigger.routeName}
          {trigger.jst ? ` (JST ${trigger.jst})` : ''}
        </code>
      )}
      {trigger.type === 'schedule' && <span className="small"> {scheduleText(trigger)}</span>}
      <span className="muted small"> {typeof trigger.lastExecuted === 'number' ? `last ran ${localDateTime(trigger.lastExecuted)}` : 'never ran'}</span>{' '}
      {trigger.type === 'manual' && <ManualRun trigger={trigger} automation={automation} onStarted={refresh} />}
      {trigger.type === 'eventSystem' && <span className="muted small"> kept as imported; the console does not fire eventSystem triggers</span>}{' '}
      <DeleteButton name={trigger.name} consequence={trigger.type === 'schedule' ? 'It starts no more jobs.' : 'Callers of this trigger get 404 from then on.'} remove={() => call('triggers.delete', { params: { id: trigger._id } })} onDeleted={refresh} />
    </li>
  );
}

function AutomationRow({ automation }: { automation: AutomationOverview }) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [adding, setAdding] = useState(false);
  const refresh = () => void refreshAfter(queryClient, 'automations');
  return (
    <tr aria-label={automation.name}>
      <td>
        <strong>{automation.name}</strong>
        {automation.description && <div className="muted small">{automation.description}</div>}
        {editing && <AutomationForm existing={automation} onDone={() => setEditing(false)} />}
      </td>
      <td>
        {automation.workflow ? <a href={`#/workflows/${encodeURIComponent(automation.workflow)}`}>{automation.workflow}</a> : '—'}
        {automation.problem && <Alert look="field">{automation.problem}</Alert>}
      </td>
      <td>
        {automation.triggers.length === 0 ? (
          <span className="muted">No trigger</span>
        ) : (
          <ul aria-label={`Triggers of ${automation.name}`} className="plain-list">
            {automation.triggers.map((t) => (
              <TriggerLine key={t._id} trigger={t} automation={automation.name} />
            ))}
          </ul>
        )}
        {adding ? <TriggerForm automationId={automation._id} onDone={() => setAdding(false)} /> : (
          <button type="button" onClick={() => setAdding(true)} aria-label={`Add trigger to ${automation.name}`}>
            Add trigger
          </button>
        )}
      </td>
      <td>
        {automation.recentJobs.length === 0 ? (
          <span className="muted">No job yet</span>
        ) : (
          <ul aria-label={`Recent jobs of ${automation.name}`} className="plain-list">
            {automation.recentJobs.map((job) => (
              <li key={job._id}>
                <a href={`#/jobs/${encodeURIComponent(job._id)}`}>{new Date(job.start_time).toLocaleString()}</a> <StatusBadge status={jobStatus(job.status)} />
              </li>
            ))}
          </ul>
        )}
      </td>
      <td>
        <button type="button" onClick={() => setEditing(!editing)} aria-label={`Edit ${automation.name}`}>
          {editing ? 'Close' : 'Edit'}
        </button>{' '}
        <DeleteButton
          name={automation.name}
          consequence="Its triggers are deleted with it; its workflow and jobs stay."
          remove={() => call('automations.delete', { params: { id: automation._id } })}
          onDeleted={refresh}
        />
      </td>
    </tr>
  );
}

export function AutomationsPage() {
  const [creating, setCreating] = useState(false);
  const overview = useQuery({ queryKey: qk.automations(), queryFn: () => call('automations.overview'), refetchInterval: REFRESH_MS });
  return (
    <section>
      <h1>Automations</h1>
      <p className="muted">
        Operations Manager’s automations: each starts a workflow when one of its triggers fires. An endpoint trigger is called as a webhook
        (POST with a JSON body); a manual trigger runs from here.
      </p>
      {overview.isPending && <p>Loading the automations…</p>}
      {overview.isError && <Alert>Cannot read the automations: {overview.error.message}</Alert>}
      {overview.data && overview.data.automations.length === 0 && <p className="muted">No automation yet: create one, or import a pre-built that carries some.</p>}
      {overview.data && overview.data.automations.length > 0 && (
        <table aria-label="Automations" className="health-table">
          <thead>
            <tr>
              <th>Automation</th>
              <th>Workflow</th>
              <th>Triggers</th>
              <th>Recent jobs</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {overview.data.automations.map((a) => (
              <AutomationRow key={a._id} automation={a} />
            ))}
          </tbody>
        </table>
      )}
      {creating ? (
        <AutomationForm onDone={() => setCreating(false)} />
      ) : (
        <button type="button" onClick={() => setCreating(true)}>
          New automation
        </button>
      )}
    </section>
  );
}
