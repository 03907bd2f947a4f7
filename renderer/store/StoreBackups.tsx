// The embedded store's backups on the Store card: the newest one's age (or none yet), a backup
// taken now, and the restore of any backup (the newest, or one of the list of all backups) after a
// confirmation (components/ConfirmDialog) that shows what it would discard (its preview: the jobs and
// other documents accepted since the backup) and, for a backup taken before manifests, that it cannot
// be verified; then the task worker stops, the file is swapped, the store reopens on it.
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import type { RestorePreview, StoreBackup, StoreStatus } from '../../core/contract/store';
import { ago, formatTime } from '../jobs/format';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { refreshEverything } from '../api/keys';
import { BackupsList } from './BackupsList';

export function StoreBackups({ status }: { status: StoreStatus }) {
  const queryClient = useQueryClient();
  /** The backup whose restore is being confirmed. */
  const [confirming, setConfirming] = useState<StoreBackup | undefined>();
  const refresh = () => {
    // The store, the status bar and the overview all change with a backup or a restore.
    void refreshEverything(queryClient);
  };
  const take = useMutation({ mutationFn: () => call('store.backups.take'), onSuccess: refresh });
  const preview = useMutation({
    mutationFn: async (backup: StoreBackup) => (await call('store.backups.restore', { params: { id: backup.id }, body: { preview: true } })) as RestorePreview,
    onMutate: () => setConfirming(undefined),
    onSuccess: (answer) => setConfirming(answer.backup),
  });
  const restore = useMutation({
    mutationFn: async (backup: StoreBackup) => {
      // A backup without a manifest is restored only as confirmed unverified (the confirmation says so).
      const unverified = backup.check?.state === 'unverified';
      const done = await call('store.backups.restore', { params: { id: backup.id }, body: unverified ? { unverified: true } : {} });
      if ('preview' in done) throw new Error('the console answered a preview, not a restore');
      return done;
    },
    onSuccess: () => {
      setConfirming(undefined);
      refresh();
    },
  });
  const backups = status.backups;
  if (!backups) return null;
  const newest = backups.newest;
  const stale = newest && Date.now() - newest.takenAt > backups.schedule.everyMinutes * 60_000;
  return (
    <div className="store-backups">
      <p aria-label="Newest backup">
        Newest backup:{' '}
        {newest ? (
          <>
            <span className={stale ? 'badge warn' : 'badge good'}>{ago(newest.takenAt)}</span> <span title={newest.file}>{formatTime(newest.takenAt)}</span> ({backups.count} kept, one every{' '}
            {backups.schedule.everyMinutes} min)
          </>
        ) : (
          <span className="badge warn">none yet</span>
        )}
      </p>
      <p>
        <button type="button" onClick={() => take.mutate()} disabled={take.isPending || status.safety?.state === 'stopped'}>
          {take.isPending ? 'Taking a backup…' : 'Take a backup'}
        </button>{' '}
        {newest && !confirming && (
          <button type="button" onClick={() => preview.mutate(newest)} disabled={preview.isPending}>
            {preview.isPending ? 'Reading what it would discard…' : 'Restore the newest backup…'}
          </button>
        )}
      </p>
      {confirming && (
        <ConfirmDialog
          title={`Restore the backup of ${formatTime(confirming.takenAt)}?`}
          confirmLabel={confirming.check?.state === 'unverified' ? 'Restore unverified backup' : 'Restore'}
          cancelLabel="Keep the current store"
          danger
          busy={restore.isPending}
          error={restore.isError ? `The restore failed: ${restore.error.message}` : undefined}
          onConfirm={() => restore.mutate(confirming)}
          onCancel={() => setConfirming(undefined)}
        >
          <p>The task worker stops, the file is replaced (the current one is kept beside it) and the store reopens on the backup.</p>
          {confirming.check?.state === 'unverified' && (
            <p className="error" aria-label="Unverified backup">
              This backup is unverified: it was taken before backups carried a manifest, so its checksum, size and counts cannot be checked.
            </p>
          )}
          {preview.data && (
            <p>
              <Discards preview={preview.data} />
            </p>
          )}
        </ConfirmDialog>
      )}
      <BackupsList onRestore={(backup) => preview.mutate(backup)} busy={preview.isPending || restore.isPending} />
      <p role="status" aria-label="Backup result">
        {preview.isError && <span className="error">The restore cannot be previewed: {preview.error.message}</span>}
        {take.isError && <span className="error">The backup failed: {take.error.message}</span>}
        {take.data && !restore.data && <span className="good">Backup taken ({take.data.bytes.toLocaleString()} bytes)</span>}
        {restore.data && <span className="good">Restored; the replaced file is kept as {restore.data.replacedFile}</span>}
      </p>
    </div>
  );
}

/** What the restore would discard: the documents accepted since the backup, per collection, and the jobs by name. */
function Discards({ preview }: { preview: RestorePreview }) {
  const lost = Object.entries(preview.discards).filter(([, n]) => n > 0);
  if (preview.unreadable) return <span aria-label="What the restore discards">What it discards cannot be counted: {preview.unreadable}. </span>;
  if (!lost.length) return <span aria-label="What the restore discards">Nothing accepted since the backup is discarded. </span>;
  return (
    <span aria-label="What the restore discards" className="error">
      It discards {lost.reduce((sum, [, n]) => sum + n, 0)} documents accepted since the backup: {lost.map(([collection, n]) => `${n} in ${collection}`).join(', ')}.
      {preview.jobs.length > 0 && (
        <>
          {' '}
          Jobs: {preview.jobs.slice(0, 10).map((job) => (job.name ? `${job.name} (${job._id})` : job._id)).join(', ')}
          {(preview.discards.jobs ?? 0) > 10 ? ` and ${(preview.discards.jobs ?? 0) - 10} more` : ''}.
        </>
      )}{' '}
    </span>
  );
}
