import { useStatus } from '../shell/useStatus';
import { StoreCard } from '../store/StoreCard';

export function OverviewPage() {
  const status = useStatus();
  return (
    <section>
      <h1>Overview</h1>
      {status.isPending && <p>Loading the console's status…</p>}
      {status.isError && <p className="error">Cannot read the console's status: {status.error.message}</p>}
      {status.data && (
        <dl className="facts">
          <dt>Release</dt>
          <dd>{status.data.release}</dd>
          <dt>Server</dt>
          <dd>
            {status.data.serverName} <span className="muted">({status.data.serverId})</span>
          </dd>
          <dt>Active profile</dt>
          <dd>{status.data.profile}</dd>
          <dt>Store</dt>
          <dd>{status.data.store}</dd>
          <dt>Services</dt>
          <dd>
            {status.data.services.map((s) => (
              <span key={s.service} className={s.status === 'running' ? 'badge good' : 'badge bad'}>
                {s.service}: {s.status}
                {s.detail ? ` (${s.detail})` : ''}
              </span>
            ))}
          </dd>
        </dl>
      )}
      <StoreCard profileId={status.data?.profile} />
    </section>
  );
}
