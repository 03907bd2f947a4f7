import { useStatus } from './useStatus';

export function StatusBar() {
  const status = useStatus();
  if (status.isPending) {
    return (
      <footer className="status-bar" role="status" aria-label="Status bar">
        <span className="spinner" aria-hidden /> Connecting to the console…
      </footer>
    );
  }
  if (status.isError) {
    return (
      <footer className="status-bar status-bar--error" role="status" aria-label="Status bar">
        Console unreachable: {status.error.message}
      </footer>
    );
  }
  const s = status.data;
  const mongo = s.services.find((service) => service.service === 'mongo' || service.service === 'embedded-store');
  return (
    <footer className="status-bar" role="status" aria-label="Status bar">
      <span>Release {s.release}</span>
      <span>Server {s.serverName}</span>
      <span>Profile {s.profile}</span>
      <span className={mongo?.status === 'failed' ? 'bad' : 'good'}>
        Store {s.store === 'embedded' ? 'embedded' : 'MongoDB'}: {mongo?.status ?? 'unknown'}
      </span>
      <span className={s.taskWorker.running ? 'good' : 'muted'}>Task worker {s.taskWorker.running ? 'running' : 'stopped'}</span>
    </footer>
  );
}
