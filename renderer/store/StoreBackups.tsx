// The embedded store's backups on the Store card: the newest one's age (or none yet), a backup
// taken now, and a restore of the newest one after a confirmation (components/ConfirmDialog) that shows what it would discard
// (its preview: the jobs and other documents accepted since the backup), then the task worker
// stops, the file is swapped, the store reopens on it.
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import type { RestorePreview, StoreStatus } from '../../core/contract/store';
import { ago, formatTime } from '../jobs/format';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { refreshEverything } from '../api/keys';

export function StoreBackups({ status }: { status: StoreStatus }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const refresh = () => {
    // The store, the status bar and the overview all change with a backup or a restore.
    void refreshEverything(queryClient);
  };
  const take = useMutation({ mutationFn: () => call('store.backups.take'), onSuccess: refresh });
  const preview = useMutation({
    mutationFn: async (id: string) => (await call('store.backups.restore', { params: { id }, body: { preview: true } })) as RestorePreview,
    onSuccess: () => setConfirming(true),
  });
  const restore = useMutation({
    mutationFn: async (id: string) => {
      const done = await call('store.backups.restore', { params: { id }, body: {} });
      if ('preview' in done) throw new Error('the console answered a preview, not a restore');
      return done;
    },
    onSuccess: () => {
      setConfirming(false);
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
          <button type="button" onClick={() => preview.mutate(newest.id)} disabled={preview.isPending}>
            {preview.isPending ? 'Reading what it would discard…' : 'Restore the newest backup…'}
          </button>
        )}
      </p>
      {newest && confirming && (
        <ConfirmDialog
          title={`Restore the backup of ${formatTime(newest.takenAt)}?`}
          confirmLabel="Restore"
          cancelLabel="Keep the current store"
          danger
          busy={restore.isPending}
          error={restore.isError ? `The restore failed: ${restore.error.message}` : undefined}
          onConfirm={() => restore.mutate(newest.id)}
          onCancel={() => setConfirming(false)}
        >
          <p>The task worker stops, the file is replaced (the current one is kept beside it) and the store reopens on the backup.</p>
          {preview.data && (
            <p>
              <Discards preview={preview.data} />
            </p>
          )}
        </ConfirmDialog>
      )}
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
