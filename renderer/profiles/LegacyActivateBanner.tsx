// The legacy `activate` setting: a banner on a profile that still carries it, and the
// migration to processTasksOnStart, from the profile's own file or from a service config
// file of an older release. The change is shown (before/after) before anything is written.
import { useEffect, useState } from 'react';
import type { LegacyActivateFinding, MigrateActivatePreview } from '../../core/contract/profiles';
import { call } from '../api/client';
import { readJsonFile, useProfileMutation } from './api';
import { Alert } from '../shell/Alert';

interface Source {
  config?: unknown;
  source?: string;
}

export function LegacyActivateBanner({ id, findings, warnings }: { id: string; findings: LegacyActivateFinding[]; warnings: string[] }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      {findings.length > 0 && (
        <div className="banner" role="region" aria-label="Legacy activate setting">
          <strong>This profile still carries the legacy `activate` setting</strong>, removed in 2022.1 and replaced by{' '}
          <code>processTasksOnStart</code>.
          <ul>
            {warnings.map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </ul>
          {!open && (
            <button onClick={() => setOpen(true)} className="primary">
              Review the migration
            </button>
          )}
        </div>
      )}
      {open && <MigrationPanel id={id} startWithProfile onClose={() => setOpen(false)} />}
      {findings.length === 0 && (
        <details className="migration-details">
          <summary>Carry over `activate` from an older release's service config</summary>
          <MigrationPanel id={id} startWithProfile={false} onClose={() => undefined} />
        </details>
      )}
    </>
  );
}

function MigrationPanel({ id, startWithProfile, onClose }: { id: string; startWithProfile: boolean; onClose: () => void }) {
  const [source, setSource] = useState<Source>();
  const [fileError, setFileError] = useState<string>();
  const preview = useProfileMutation((input: Source) => call('profiles.migrateActivatePreview', { params: { id }, body: input }));
  const migrate = useProfileMutation((input: Source) => call('profiles.migrateActivate', { params: { id }, body: input }), {
    everything: true,
  });

  const ask = (input: Source) => {
    setSource(input);
    migrate.reset();
    preview.mutate(input);
  };
  // The profile's own file is previewed as soon as the banner is followed.
  useEffect(() => {
    if (startWithProfile) ask({});
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [startWithProfile]);

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    try {
      setFileError(undefined);
      ask({ config: await readJsonFile(file), source: file.name });
    } catch (error) {
      setFileError((error as Error).message);
    }
  };

  return (
    <section className="migration" aria-label="Migrate activate to processTasksOnStart">
      <h3>Migrate `activate` to processTasksOnStart</h3>
      <p className="muted">
        Releases 2019.2 and 2019.3 kept the setting in the task worker's service config, 2020.1 in the workflow engine's (
        <code>{'{"properties": {"activate": true}}'}</code>). Check such a file to carry its setting over to this profile.
      </p>
      <label>
        Check a service config file…{' '}
        <input type="file" accept=".json,application/json" aria-label="Service config file" onChange={(e) => void onFile(e.target.files?.[0])} />
      </label>
      {fileError && (
        <Alert>
          {fileError}
        </Alert>
      )}
      {preview.isPending && <p>Reading the proposed change…</p>}
      {preview.isError && (
        <Alert>
          {preview.error.message}
        </Alert>
      )}
      {preview.data && <PreviewView preview={preview.data} />}
      <MigrationOutcome error={migrate.error} result={migrate.data} />
      <div className="form-actions">
        {preview.data?.applicable && preview.data.changes && !migrate.data && (
          <button className="primary" disabled={migrate.isPending} onClick={() => source && migrate.mutate(source)}>
            Write processTasksOnStart = {String(preview.data.after.processTasksOnStart)}
          </button>
        )}
        {startWithProfile && <button onClick={onClose}>Close</button>}
      </div>
    </section>
  );
}

const PLACE_TEXT: Record<LegacyActivateFinding['place'], string> = {
  properties: 'properties.json',
  'task-worker': "the task worker's service config, 2019.2 and 2019.3",
  'workflow-engine': "the workflow engine's service config, 2020.1",
};

function PreviewView({ preview }: { preview: MigrateActivatePreview }) {
  return (
    <div className="migration-preview" aria-label="Proposed change">
      <p>{preview.message}</p>
      {preview.applicable && preview.consequence && (
        <p className="banner" aria-label="What this value does">
          {preview.consequence}
        </p>
      )}
      {preview.findings.length > 1 && (
        <ul aria-label="Settings found">
          {preview.findings.map((f) => (
            <li key={f.jsonPath}>
              <code>{f.jsonPath}</code> = {String(f.value)} ({PLACE_TEXT[f.place]})
            </li>
          ))}
        </ul>
      )}
      {preview.applicable && (
        <table aria-label="Before and after">
          <thead>
            <tr>
              <th>Field of properties.json</th>
              <th>Before</th>
              <th>After</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>processTasksOnStart</td>
              <td>{preview.before.processTasksOnStart === undefined ? 'not set' : String(preview.before.processTasksOnStart)}</td>
              <td>{String(preview.after.processTasksOnStart)}</td>
            </tr>
            {'activate' in preview.before && (
              <tr>
                <td>activate</td>
                <td>{JSON.stringify(preview.before.activate)}</td>
                <td>removed</td>
              </tr>
            )}
          </tbody>
        </table>
      )}
    </div>
  );
}

/** What writing the migration did: the new processTasksOnStart and where the previous file was kept, or why not. */
export function MigrationOutcome({
  error,
  result,
  profile,
}: {
  error: Error | null;
  result: { entry: { profile: Record<string, unknown> }; backup: string } | undefined;
  profile?: string;
}) {
  return (
    <>
      {error && (
        <Alert>
          Not migrated: {error.message}
        </Alert>
      )}
      {result && (
        <p className="good" role="status">
          {profile ? `Profile ${profile}: ` : ''}processTasksOnStart is now {String(result.entry.profile.processTasksOnStart)}. The
          previous file was kept at <code>{result.backup}</code>.
        </p>
      )}
    </>
  );
}
