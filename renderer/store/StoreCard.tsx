// The active profile's store on the Overview: embedded (and where) or the MongoDB
// host, connected or the error, and a connection test.
import { useQuery } from '@tanstack/react-query';
import { call } from '../api/client';
import { TestConnectionButton } from './TestConnectionButton';
import { StoreBackups } from './StoreBackups';
import { useStaleSince } from '../shell/live';
import { qk } from '../api/keys';
import { formatTime } from '../jobs/format';

export function StoreCard({ profileId }: { profileId?: string }) {
  const status = useQuery({
    queryKey: qk.store(),
    queryFn: () => call('store.status'),
    // An embedded store's first integrity check runs in the background once asked: read again soon until it lands.
    refetchInterval: (query) => (checking(query.state.data) ? 1_000 : 10_000),
    retry: false,
  });
  // While the console does not answer, the last state is not shown as current.
  const stale = useStaleSince(status);
  return (
    <section className="store-card" aria-label="Store">
      <h2>Store</h2>
      {status.isPending && <p>Reading the store's status…</p>}
      {status.isError && !status.data && <p className="error">Cannot read the store's status: {status.error.message}</p>}
      {status.data && (
        <>
          <p>
            <strong>{status.data.kind === 'embedded' ? 'Embedded store' : 'MongoDB'}</strong>{' '}
            <span className="store-location">{status.data.location}</span>
          </p>
          <p>
            {stale ? (
              <span className="badge tone-unknown" aria-label="Store connection">
                {stale}
              </span>
            ) : status.data.connected ? (
              <span className="badge good">connected</span>
            ) : (
              <>
                <span className="badge bad">not connected</span> <span className="error">{status.data.error}</span>
              </>
            )}
          </p>
          {status.data.safety && !status.data.safety.writable && (
            <p className="store-safety">
              <span className="badge bad">{status.data.safety.state === 'stopped' ? 'stopped' : status.data.safety.state === 'read-only' ? 'read-only' : 'writes fail'}</span>{' '}
              <span className="error">{status.data.safety.reason}</span>
            </p>
          )}
          {checking(status.data) && <p className="store-integrity">Integrity check: running…</p>}
          {status.data.integrity && (
            <p className="store-integrity">
              Integrity check:{' '}
              {status.data.integrity.ok ? (
                <span className="badge good">ok</span>
              ) : (
                <>
                  <span className="badge bad">problems</span> <span className="error">{status.data.integrity.problems.join('; ')}</span>
                </>
              )}
            </p>
          )}
          {status.data.identity && (
            <p className="store-identity" aria-label="Store identity" title="Kept inside the file: a copy of the data directory opened elsewhere shows the same id">
              Store {status.data.identity.id}, created {formatTime(Date.parse(status.data.identity.createdAt))}
            </p>
          )}
          <StoreBackups status={status.data} />
        </>
      )}
      {profileId && <TestConnectionButton profileId={profileId} />}
    </section>
  );
}

/** An embedded store whose first integrity check has not ended yet (the status has no result to show). */
const checking = (data: { kind: string; connected: boolean; integrity?: unknown } | undefined) => data?.kind === 'embedded' && data.connected && !data.integrity;
