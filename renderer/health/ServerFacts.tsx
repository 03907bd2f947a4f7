// The Health page's Server tab: what the service's clients read first (GET /health/status,
// /health/server, /health/system) shown to the operator: the release they will see, the console
// process (Node, memory, uptime) and its machine (memory, load).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call } from '../api/client';
import { REFRESH_MS } from './HealthTable';
import { formatBytes, formatUptime } from './format';
import { qk } from '../api/keys';

const word = (state: 'running' | 'degraded') => <span className={state === 'running' ? 'badge good' : 'badge warn'}>{state}</span>;

export function ServerFacts() {
  const options = { refetchInterval: REFRESH_MS, placeholderData: keepPreviousData } as const;
  const status = useQuery({ queryKey: qk.status(), queryFn: () => call('health.status'), ...options });
  const server = useQuery({ queryKey: qk.server(), queryFn: () => call('health.server'), ...options });
  const system = useQuery({ queryKey: qk.system(), queryFn: () => call('health.system'), ...options });
  if (server.isPending || system.isPending || status.isPending) return <p>Loading the server facts…</p>;
  const failed = [server, system, status].find((query) => query.isError && !query.data);
  if (failed?.error) return <p className="error">Cannot read the server facts: {failed.error.message}</p>;
  const s = server.data;
  const m = system.data;
  const st = status.data;
  if (!s || !m || !st) return null;
  return (
    <div>
      <h2>Console process</h2>
      <dl className="facts" aria-label="Console process">
        <dt>Release</dt>
        <dd>
          {s.release} (build {s.version})
        </dd>
        <dt>Host</dt>
        <dd>
          {st.host} (server {st.serverName})
        </dd>
        <dt>Applications</dt>
        <dd>{word(st.apps)}</dd>
        <dt>Adapters</dt>
        <dd>{word(st.adapters)}</dd>
        <dt>Node</dt>
        <dd>
          {s.versions.node} on {s.platform} {s.arch}
        </dd>
        <dt>Uptime</dt>
        <dd>{formatUptime(s.uptime)}</dd>
        <dt>Memory (RSS)</dt>
        <dd>{formatBytes(s.memoryUsage.rss)}</dd>
        <dt>Heap used</dt>
        <dd>
          {formatBytes(s.memoryUsage.heapUsed)} of {formatBytes(s.memoryUsage.heapTotal)}
        </dd>
        <dt>pid</dt>
        <dd>{s.pid}</dd>
      </dl>
      <h2>Machine</h2>
      <dl className="facts" aria-label="Machine">
        <dt>Operating system release</dt>
        <dd>
          {m.release} ({m.arch})
        </dd>
        <dt>Uptime</dt>
        <dd>{formatUptime(m.uptime)}</dd>
        <dt>Memory free</dt>
        <dd>
          {formatBytes(m.freemem)} of {formatBytes(m.totalmem)}
        </dd>
        <dt>Load (1, 5, 15 min)</dt>
        <dd>{m.loadavg.map((load) => load.toFixed(2)).join(', ')}</dd>
        <dt>CPUs</dt>
        <dd>
          {m.cpus.length} × {m.cpus[0]?.model ?? 'unknown'}
        </dd>
      </dl>
    </div>
  );
}
