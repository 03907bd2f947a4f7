// Every backup of the embedded store, newest first, as `GET /store/backups` lists them: when it was
// taken, its size and jobs, and how it stands against its manifest (verified, bad with the failed
// check, or unverified: taken before backups carried a manifest). Each row but a bad one offers
// its restore, which the Store card previews and confirms (RestoreConfirm).
import { useQuery } from '@tanstack/react-query';
import { call } from '../api/client';
import { qk } from '../api/keys';
import type { StoreBackup } from '../../core/contract/store';
import { ago, formatTime } from '../jobs/format';

const CHECK_LABEL = { ok: 'verified', bad: 'bad', unverified: 'unverified' } as const;
const CHECK_TONE = { ok: 'good', bad: 'bad', unverified: 'warn' } as const;

export function BackupsList({ onRestore, busy }: { onRestore: (backup: StoreBackup) => void; busy: boolean }) {
  const list = useQuery({ queryKey: qk.backups(), queryFn: () => call('store.backups.list'), retry: false });
  if (list.isPending) return <p>Reading the backups…</p>;
  if (list.isError) return <p className="error">Cannot list the backups: {list.error.message}</p>;
  const { backups, replaced } = list.data;
  if (!backups.length) return null;
  return (
    <details className="store-backups-list">
      <summary>
        All backups ({backups.length}){replaced.length > 0 ? `, ${replaced.length} replaced file${replaced.length === 1 ? '' : 's'} kept` : ''}
      </summary>
      <table aria-label="Backups">
        <thead>
          <tr>
            <th scope="col">Taken</th>
            <th scope="col">Size</th>
            <th scope="col">Jobs</th>
            <th scope="col">Check</th>
            <th scope="col">
              <span className="visually-hidden">Restore</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {backups.map((backup) => {
            const state = backup.check?.state ?? 'unverified';
            return (
              <tr key={backup.id} aria-label={`Backup of ${formatTime(backup.takenAt)}`}>
                <td title={backup.file}>
                  {formatTime(backup.takenAt)} ({ago(backup.takenAt)})
                </td>
                <td>{backup.bytes.toLocaleString()} bytes</td>
                <td>{backup.counts?.jobs ?? '–'}</td>
                <td>
                  <span className={`badge ${CHECK_TONE[state]}`}>{CHECK_LABEL[state]}</span>
                  {state !== 'ok' && backup.check?.reason && <span className={state === 'bad' ? 'error' : undefined}> {backup.check.reason}</span>}
                </td>
                <td>
                  <button type="button" onClick={() => onRestore(backup)} disabled={busy || state === 'bad'} aria-label={`Restore the backup of ${formatTime(backup.takenAt)}…`}>
                    Restore…
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </details>
  );
}
