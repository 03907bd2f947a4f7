// For an `activate` finding of the upgrade check: carry the setting over to the active profile
// through the profiles' migration. The change is shown before anything is written.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { UpgradeFinding } from '../../core/contract/upgrade';
import { call } from '../api/client';
import { MigrationOutcome } from '../profiles/LegacyActivateBanner';
import { Alert } from '../shell/Alert';
import { qk, refreshEverything } from '../api/keys';

export function ActivateMigration({ finding }: { finding: UpgradeFinding }) {
  const [open, setOpen] = useState(false);
  const status = useQuery({ queryKey: qk.status(), queryFn: () => call('health.status') });
  const client = useQueryClient();
  const profile = status.data?.profile;
  const body = { config: finding.migration?.config, source: `${finding.file}:${finding.line}` };
  const preview = useMutation({
    mutationFn: (id: string) => call('profiles.migrateActivatePreview', { params: { id }, body }),
  });
  const migrate = useMutation({
    mutationFn: (id: string) => call('profiles.migrateActivate', { params: { id }, body }),
    onSuccess: () => refreshEverything(client),
  });

  if (!finding.migration?.config) {
    return <p className="muted">This file is too large to carry here: import it from the active profile's migration on the Profiles page.</p>;
  }
  if (!profile) return status.isError ? <p className="error">Cannot read the active profile: {status.error.message}</p> : null;

  const label = `processTasksOnStart = ${finding.migration.value}`;
  return (
    <div className="upgrade-migration" aria-label={`Migration for ${finding.file}:${finding.line}`}>
      {!open && (
        <button
          onClick={() => {
            setOpen(true);
            preview.mutate(profile);
          }}
        >
          Apply to the active profile ({profile})…
        </button>
      )}
      {open && preview.isPending && <p>Reading the proposed change…</p>}
      {open && preview.isError && (
        <Alert>
          {preview.error.message}
        </Alert>
      )}
      {open && preview.data && !migrate.data && (
        <div aria-label="Proposed change">
          <p>{preview.data.message}</p>
          {preview.data.applicable && (
            <p>
              Profile <strong>{profile}</strong>: processTasksOnStart{' '}
              {preview.data.before.processTasksOnStart === undefined ? 'not set' : String(preview.data.before.processTasksOnStart)} →{' '}
              <strong>{String(preview.data.after.processTasksOnStart)}</strong>
            </p>
          )}
          {preview.data.applicable && preview.data.changes ? (
            <>
              <button className="primary" disabled={migrate.isPending} onClick={() => migrate.mutate(profile)}>
                Write {label}
              </button>{' '}
              <button onClick={() => setOpen(false)}>Cancel</button>
            </>
          ) : (
            <button onClick={() => setOpen(false)}>Close</button>
          )}
        </div>
      )}
      <MigrationOutcome error={migrate.error} result={migrate.data} profile={profile} />
    </div>
  );
}
