// A drill between two sites: each this console or another by URL and API token, the failure
// (stop over its API, or gone: you cut it off), the critical workflows the standby must run (and
// whether the load runs them on simulated instances), failback, and whether failover persists
// processTasksOnStart: true on the standby.
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { ApiError, call } from '../api/client';
import type { DrillReport } from '../../core/contract/drills';
import { RunOptionsFields, runOptionsBody, useRunOptions } from './RunOptions';
import { Alert } from '../shell/Alert';

interface SiteFields {
  local: boolean;
  url: string;
  token: string;
}

function SiteFieldset({ role, value, onChange, errors }: { role: 'Active' | 'Standby'; value: SiteFields; onChange: (v: SiteFields) => void; errors: Record<string, string> }) {
  const key = role.toLowerCase();
  return (
    <fieldset>
      <legend>{role} site</legend>
      <label>
        <input type="checkbox" checked={value.local} onChange={(e) => onChange({ ...value, local: e.target.checked })} /> This console
      </label>
      {!value.local && (
        <>
          {' '}
          <label>
            {role} URL <input value={value.url} onChange={(e) => onChange({ ...value, url: e.target.value })} placeholder="http://dr-site:4100" />
          </label>{' '}
          <label>
            {role} API token <input type="password" autoComplete="off" value={value.token} onChange={(e) => onChange({ ...value, token: e.target.value })} />
          </label>
        </>
      )}
      {Object.entries(errors)
        .filter(([path]) => path.startsWith(`body.${key}`))
        .map(([path, message]) => (
          <p key={path} className="error">
            {role} site: {message}
          </p>
        ))}
    </fieldset>
  );
}

export function SitesForm({ onStarted }: { onStarted: (report: DrillReport) => void }) {
  const [active, setActive] = useState<SiteFields>({ local: true, url: '', token: '' });
  const [standby, setStandby] = useState<SiteFields>({ local: false, url: '', token: '' });
  const [options, setOptions] = useRunOptions<'stop' | 'gone'>('stop');
  const [workflows, setWorkflows] = useState('');
  // load: "workflows": the drill runs the named workflows on simulated instances instead of its ledger workflow.
  const [runThem, setRunThem] = useState(false);
  const site = (s: SiteFields) => (s.local ? { local: true } : { url: s.url.trim(), token: s.token });
  const start = useMutation({
    mutationFn: () =>
      call('drills.startSites', {
        body: {
          active: site(active),
          standby: site(standby),
          ...runOptionsBody(options),
          workflows: workflows.split('\n').map((w) => w.trim()).filter(Boolean),
          load: runThem ? 'workflows' : 'ledger',
        },
      }),
    onSuccess: onStarted,
  });
  const errors = start.error instanceof ApiError ? start.error.fieldErrors : {};
  return (
    <form
      className="drill-options"
      aria-label="Sites drill"
      onSubmit={(event) => {
        event.preventDefault();
        start.mutate();
      }}
    >
      <p>Both sites must point at the same database. The standby is prepared as the Manual Failover procedure asks: processTasksOnStart false, task worker, OperationsManager and AutomationCatalog stopped.</p>
      <SiteFieldset role="Active" value={active} onChange={setActive} errors={errors} />
      <SiteFieldset role="Standby" value={standby} onChange={setStandby} errors={errors} />
      <RunOptionsFields
        value={options}
        onChange={setOptions}
        failures={[
          { value: 'stop', label: 'stop its worker and applications (over its API)' },
          { value: 'gone', label: 'the site is gone (you cut it off; no call to it afterwards)' },
        ]}
      />
      <label className="block">
        Critical workflows to check on the standby (one per line)
        <textarea rows={3} value={workflows} onChange={(e) => setWorkflows(e.target.value)} />
      </label>
      <label className="block">
        <input type="checkbox" checked={runThem} onChange={(e) => setRunThem(e.target.checked)} /> Run these workflows (of this console's profile) on simulated adapter instances
        instead of the drill's ledger workflow: copied to a site that lacks them, what they lack simulated; a site where they would call a real adapter instance stops the drill
      </label>
      {errors['body.workflows'] && <p className="error">Workflows: {errors['body.workflows']}</p>}
      <button type="submit" disabled={start.isPending}>
        {start.isPending ? 'Starting…' : 'Run sites drill'}
      </button>
      {start.isError && (
        <Alert>
          {start.error.message}
        </Alert>
      )}
    </form>
  );
}
