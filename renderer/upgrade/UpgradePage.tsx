// The Upgrade page: check a folder on the console's machine (a site's custom applications,
// adapters, service configs and exported workflows) for what must change before release 2022.1.
// Findings are grouped by rule, each with the fix beside it; `activate` findings can be migrated
// to the active profile from here.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { UPGRADE_RULES, type UpgradeFinding, type UpgradeReport, type UpgradeRule, type UpgradeRun } from '../../core/contract/upgrade';
import { ApiError, call } from '../api/client';
import { ActivateMigration } from './ActivateMigration';
import { Alert } from '../shell/Alert';
import { Rehearsal } from './Rehearsal';
import { qk } from '../api/keys';

const LAST_PATH_KEY = 'upgrade.lastPath';

export function UpgradePage() {
  const [folder, setFolder] = useState(() => window.localStorage.getItem(LAST_PATH_KEY) ?? '');
  const check = useMutation({ mutationFn: (path: string) => call('upgrade.start', { body: { path } }) });
  const runId = check.data?.id;
  const run = useQuery({
    queryKey: qk.upgradeRun(runId),
    queryFn: () => call('upgrade.run', { params: { id: runId! } }),
    enabled: Boolean(runId),
    refetchInterval: (query) => (query.state.data?.state === 'running' || !query.state.data ? 250 : false),
  });
  const cancel = useMutation({ mutationFn: (id: string) => call('upgrade.cancel', { params: { id } }), onSuccess: () => void run.refetch() });
  const fieldError = check.error instanceof ApiError ? check.error.fieldErrors['body.path'] : undefined;
  const current = run.data ?? check.data;
  const running = check.isPending || current?.state === 'running';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    window.localStorage.setItem(LAST_PATH_KEY, folder);
    check.mutate(folder.trim());
  };

  return (
    <section>
      <h1>Upgrade check</h1>
      <p className="muted">
        Finds what a site must change before it upgrades to release 2022.1: legacy <code>activate</code> settings, calls to deprecated or removed
        APIs, <code>npm run index</code>, references to the UI library's removed JavaScript, codePointAt tasks without an error transition and
        child-job variables that can be undefined. node_modules and .git folders are not read.
      </p>
      <form className="upgrade-form" onSubmit={submit}>
        <label>
          Folder on the console's machine{' '}
          <input
            type="text"
            size={60}
            value={folder}
            onChange={(e) => setFolder(e.target.value)}
            placeholder="/opt/automation/custom-apps"
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? 'upgrade-path-error' : undefined}
          />
        </label>{' '}
        <button className="primary" type="submit" disabled={running || folder.trim() === ''}>
          Run check
        </button>{' '}
        {running && runId && (
          <button type="button" onClick={() => cancel.mutate(runId)} disabled={cancel.isPending}>
            Cancel
          </button>
        )}
        {fieldError && (
          <Alert id="upgrade-path-error">
            {fieldError}
          </Alert>
        )}
      </form>
      {running && <Progress path={check.variables ?? ''} run={current} />}
      {check.isError && !fieldError && (
        <Alert>
          The check could not start: {check.error.message}
        </Alert>
      )}
      {run.isError && (
        <Alert>
          Cannot read the check's progress: {run.error.message}
        </Alert>
      )}
      {current?.state === 'failed' && (
        <Alert>
          The check failed: {current.error}
        </Alert>
      )}
      {current?.state === 'canceled' && <p role="status">The check of {current.path} was canceled.</p>}
      {cancel.isError && (
        <Alert>
          The check could not be canceled: {cancel.error.message}
        </Alert>
      )}
      {current?.state === 'done' && current.report && !check.isPending && <Report report={current.report} />}
      <Rehearsal />
    </section>
  );
}

export function Progress({ path, run }: { path: string; run: UpgradeRun | undefined }) {
  const reading = run?.phase === 'reading';
  return (
    <div role="status" aria-label="Check progress" className="upgrade-progress">
      <span className="spinner" />{' '}
      {reading ? (
        <>
          <progress max={run.total} value={run.done} /> Read {run.done} of {run.total} files
          {run.file && (
            <>
              : <code>{run.file}</code>
            </>
          )}
        </>
      ) : (
        <>
          Listing the files of <code>{run?.path ?? path}</code>
          {run && run.done > 0 ? ` (${run.done} so far)` : ''}…
        </>
      )}
    </div>
  );
}

function Report({ report }: { report: UpgradeReport }) {
  const { summary, findings } = report;
  const rules = (Object.keys(UPGRADE_RULES) as UpgradeRule[]).filter((rule) => findings.some((f) => f.rule === rule));
  return (
    <div className="upgrade-report">
      <p role="status" aria-label="Check summary" className={summary.blocked ? 'bad' : 'good'}>
        {summary.filesScanned} files read in <code>{summary.root}</code>.{' '}
        {summary.blocked
          ? `${summary.blocking} finding${summary.blocking === 1 ? '' : 's'} block${summary.blocking === 1 ? 's' : ''} the upgrade, ${summary.warnings} warning${summary.warnings === 1 ? '' : 's'}.`
          : findings.length === 0
            ? 'Nothing to change before the upgrade.'
            : `Nothing blocks the upgrade; ${summary.warnings} warning${summary.warnings === 1 ? '' : 's'}.`}
      </p>
      {rules.map((rule) => (
        <RuleGroup key={rule} rule={rule} findings={findings.filter((f) => f.rule === rule)} />
      ))}
      {summary.skipped.length > 0 && (
        <details>
          <summary>{summary.skipped.length} files not read</summary>
          <ul>
            {summary.skipped.map((s) => (
              <li key={s.file}>
                <code>{s.file}</code>: {s.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

function RuleGroup({ rule, findings }: { rule: UpgradeRule; findings: UpgradeFinding[] }) {
  const meta = UPGRADE_RULES[rule];
  return (
    <section className="upgrade-group" aria-label={meta.title}>
      <h2>
        {meta.title} <span className="muted">({findings.length}, release notes {meta.section})</span>
      </h2>
      <table>
        <thead>
          <tr>
            <th>Where</th>
            <th>What is wrong</th>
            <th>Fix</th>
          </tr>
        </thead>
        <tbody>
          {findings.map((f, index) => (
            <tr key={`${f.file}:${f.line}:${index}`}>
              <td>
                <code>
                  {f.file}:{f.line}
                </code>{' '}
                <span className={f.blocking ? 'badge bad' : 'badge warn'}>{f.blocking ? 'blocks' : 'warning'}</span>
              </td>
              <td>{f.message}</td>
              <td>
                {f.fix}
                {f.rule === 'activate-setting' && <ActivateMigration finding={f} />}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
