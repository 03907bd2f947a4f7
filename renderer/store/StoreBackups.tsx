// The embedded store's backups on the Store card: the newest one's age (or none yet), a backup
// taken now, and a restore of the newest one after a confirmation (the task worker stops, the
// file is swapped, the store reopens on it).
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import type { StoreStatus } from '../../core/contract/store';
import { ago, formatTime } from '../jobs/format';

export function StoreBackups({ status }: { status: StoreStatus }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const refresh = () => {
    // The store, the status bar and the overview all change with a backup or a restore.
    void queryClient.invalidateQueries();
  };
  const take = useMutation({ mutationFn: () => call('store.backups.take'), onSuccess: refresh });
  const restore = useMutation({
    mutationFn: (id: string) => call('store.backups.restore', { params: { id } }),
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
          <button type="button" onClick={() => setConfirming(true)}>
            Restore the newest backup…
          </button>
        )}
      </p>
      {newest && confirming && (
        <p role="group" aria-label="Confirm the restore">
          Restore the backup of {formatTime(newest.takenAt)}? The task worker stops, the file is replaced (the current one is kept beside it) and the store reopens on the
          backup.{' '}
          <button type="button" onClick={() => restore.mutate(newest.id)} disabled={restore.isPending}>
            {restore.isPending ? 'Restoring…' : 'Restore'}
          </button>{' '}
          <button type="button" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </p>
      )}
      <p role="status" aria-label="Backup result">
        {take.isError && <span className="error">The backup failed: {take.error.message}</span>}
        {take.data && !restore.data && <span className="good">Backup taken ({take.data.bytes.toLocaleString()} bytes)</span>}
        {restore.isError && <span className="error">The restore failed: {restore.error.message}</span>}
        {restore.data && <span className="good">Restored; the replaced file is kept as {restore.data.replacedFile}</span>}
      </p>
    </div>
  );
}
