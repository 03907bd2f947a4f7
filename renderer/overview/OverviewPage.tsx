// The Overview: what needs an operator first, then who this console is and its store.
import { useStatus } from '../shell/useStatus';
import { StoreCard } from '../store/StoreCard';
import { AttentionCards } from './AttentionCards';
import { FirstRun } from './FirstRun';

export function OverviewPage() {
  const status = useStatus();
  return (
    <section>
      <h1>Overview</h1>
      <FirstRun />
      <AttentionCards />
      <h2 className="section-title">This console</h2>
      {status.isPending && <p>Loading the console's status…</p>}
      {status.isError && !status.data && <p className="error">Cannot read the console's status: {status.error.message}</p>}
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
        </dl>
      )}
      <StoreCard profileId={status.data?.profile} />
    </section>
  );
}
