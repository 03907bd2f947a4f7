// The status bar: identity, the store and the task worker, and what needs an
// operator (amber or red, naming which). Unreachable: every live part grey, "not answering since".
import { levelTone, toneClass } from './status';
import { useStaleSince, useAttention } from './live';
import { useStatus } from './useStatus';

export function StatusBar() {
  const status = useStatus();
  const attention = useAttention();
  const stale = useStaleSince(status);
  const attentionStale = useStaleSince(attention);
  if (status.isPending) {
    return (
      <footer className="status-bar" role="status" aria-label="Status bar">
        <span className="spinner" aria-hidden /> Connecting to the console…
      </footer>
    );
  }
  const s = status.data;
  const mongo = s?.services.find((service) => service.service === 'mongo' || service.service === 'embedded-store');
  const open = attention.data?.items.filter((i) => i.level !== 'ok') ?? [];
  const level = stale ? 'unknown' : attention.isError ? 'unknown' : (attention.data?.level ?? 'ok');
  const barClass = level === 'bad' ? 'status-bar status-bar--bad' : level === 'warn' ? 'status-bar status-bar--warn' : stale ? 'status-bar status-bar--offline' : 'status-bar';
  const attentionText =
    stale || attention.isError
      ? `Attention ${attentionStale ?? stale}`
      : open.length === 0
        ? 'Nothing needs attention'
        : `Needs attention: ${open.map((i) => i.summary).join(' · ')}`;
  return (
    <footer className={barClass} role="status" aria-label="Status bar">
      {stale && <span className="status-offline">Console unreachable{status.error ? `: ${status.error.message}` : ''}</span>}
      {s && (
        <>
          <span>Release {s.release}</span>
          <span>Server {s.serverName}</span>
          <span>Profile {s.profile}</span>
        </>
      )}
      <span className={stale || !mongo ? 'tone-unknown' : mongo.status === 'failed' ? 'tone-bad' : 'tone-good'}>
        Store {s ? (s.store === 'embedded' ? 'embedded' : 'MongoDB') : ''}: {stale ?? mongo?.status ?? 'unknown'}
      </span>
      <span className={stale ? 'tone-unknown' : s?.taskWorker.running ? 'tone-good' : 'tone-muted'}>
        Task worker {stale ?? (s?.taskWorker.running ? 'running' : 'stopped')}
      </span>
      {s && !stale && (
        <span className="tone-muted" title="processTasksOnStart in the active profile's properties.json">
          At startup: {s.taskWorker.startupValue ? 'works tasks' : 'does not work tasks'}
        </span>
      )}
      <span className={`status-attention ${toneClass(levelTone(level))}`} title={attentionText}>
        {attentionText}
      </span>
    </footer>
  );
}
