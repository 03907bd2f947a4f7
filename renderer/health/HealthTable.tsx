// One tab of the Health page: the applications or the adapters, polled every few seconds (the
// previous answer stays on screen while the next loads), filtered and sorted by the server.
import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import { ConfirmAction } from '../components/ConfirmAction';
import type { HealthItem } from '../../core/contract/health';
import { applicationFigures, formatItemMemory, formatItemPid, formatUptime, unhealthyReason } from './format';
import { qk, refreshAfter } from '../api/keys';
import { localizeTimestamps } from '../shell/dates';
import { StateTimeline } from './StateTimeline';

export const REFRESH_MS = 3000;

type Kind = 'applications' | 'adapters';
type Action = 'start' | 'stop' | 'restart';

const FILTER_FIELDS = ['name', 'state', 'connection', 'version', 'package_id', 'description'] as const;
const SORT_FIELDS = ['name', 'state', 'connection', 'uptime', 'restartCount'] as const;
const STATE_CLASS: Record<string, string> = { RUNNING: 'badge good', STOPPED: 'badge muted', DEAD: 'badge bad' };
const CONNECTION_CLASS: Record<string, string> = { ONLINE: 'badge good', DEGRADED: 'badge warn', OFFLINE: 'badge bad' };

/** The state badge, with STUB beside it when the adapter answers from mock data (never a live system). */
export function StateBadges({ item }: { item: HealthItem }) {
  return (
    <>
      <span className={STATE_CLASS[item.state] ?? 'badge'}>{item.state}</span>
      {item.stub && (
        <span className="badge stub" title="Stub mode: answers come from the adapter's mock data, not a live system">
          STUB
        </span>
      )}
      {item.simulated && (
        <span className="badge stub" title="Simulated: answers come from its rules (POST /adapters/simulate), not a live system">
          SIMULATED
        </span>
      )}
    </>
  );
}

export function HealthTable({ kind }: { kind: Kind }) {
  const [text, setText] = useState('');
  const [field, setField] = useState<(typeof FILTER_FIELDS)[number]>('name');
  const [sort, setSort] = useState<(typeof SORT_FIELDS)[number]>('name');
  const [order, setOrder] = useState<1 | -1>(1);
  const query = {
    ...(text.trim() ? { contains: text.trim(), containsField: field } : {}),
    sort,
    order,
    limit: 1000,
  };
  const operation = kind === 'applications' ? 'health.applications' : 'health.adapters';
  const list = useQuery({
    queryKey: qk.health(operation, query),
    queryFn: () => call(operation, { query }),
    refetchInterval: REFRESH_MS,
    placeholderData: keepPreviousData,
  });
  const adapters = kind === 'adapters';
  const fields = adapters ? FILTER_FIELDS : FILTER_FIELDS.filter((f) => f !== 'connection');
  const sorts = adapters ? SORT_FIELDS : SORT_FIELDS.filter((f) => f !== 'connection' && f !== 'restartCount');
  const label = adapters ? 'Adapters' : 'Applications';

  return (
    <div>
      <div className="health-controls" role="search" aria-label={`Filter ${label.toLowerCase()}`}>
        <label>
          Filter{' '}
          <input value={text} onChange={(e) => setText(e.target.value)} placeholder="contains…" aria-label={`Filter ${label.toLowerCase()}`} />
        </label>
        <label>
          in{' '}
          <select value={field} onChange={(e) => setField(e.target.value as typeof field)} aria-label="Filter field">
            {fields.map((f) => (
              <option key={f}>{f}</option>
            ))}
          </select>
        </label>
        <label>
          Sort by{' '}
          <select value={sort} onChange={(e) => setSort(e.target.value as typeof sort)} aria-label="Sort by">
            {sorts.map((f) => (
              <option key={f}>{f}</option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => setOrder(order === 1 ? -1 : 1)} aria-label={order === 1 ? 'Ascending; sort descending' : 'Descending; sort ascending'}>
          {order === 1 ? '↑ ascending' : '↓ descending'}
        </button>
        {list.isFetching && <span className="spinner" aria-hidden title="Refreshing" />}
      </div>
      {list.isPending && <p>Loading the {label.toLowerCase()}…</p>}
      {list.isError && !list.data && <p className="error">Cannot read the {label.toLowerCase()}: {list.error.message}</p>}
      {list.isError && list.data && <p className="banner error">Refresh failed: {list.error.message} (showing the last answer)</p>}
      {list.data && list.data.results.length === 0 && (
        <p className="muted">{text.trim() ? `No ${label.toLowerCase()} match "${text.trim()}".` : `No ${label.toLowerCase()}.`}</p>
      )}
      {list.data && list.data.results.length > 0 && (
        <table aria-label={label} className="health-table">
          <thead>
            <tr>
              <th>Name</th>
              <th>State</th>
              {adapters && <th>Connection</th>}
              <th>Version</th>
              <th>Uptime</th>
              {/* Applications run in the console's own process: its memory and pid, their own CPU and figures. */}
              <th>{adapters ? 'Memory (RSS)' : 'Memory (RSS, console process)'}</th>
              <th>{adapters ? 'PID' : 'PID (console process)'}</th>
              {!adapters && <th>Own figures</th>}
              {adapters && <th>Restarts</th>}
              {adapters && <th>Last crash</th>}
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.data.results.map((item) => (
              <HealthRow key={item.id} item={item} adapters={adapters} />
            ))}
          </tbody>
        </table>
      )}
      {list.data && (
        <p className="muted">
          {list.data.total} {label.toLowerCase()}
          {list.data.results.some((i) => unhealthyReason(i)) ? ` · ${list.data.results.filter((i) => unhealthyReason(i)).length} unhealthy` : ''} · refreshed every{' '}
          {REFRESH_MS / 1000} s
        </p>
      )}
    </div>
  );
}

function HealthRow({ item, adapters }: { item: HealthItem; adapters: boolean }) {
  const unhealthy = unhealthyReason(item);
  return (
    <tr className={unhealthy ? 'health-unhealthy' : undefined} aria-label={item.id}>
      <td>
        {unhealthy && (
          <span className="health-flag" role="img" aria-label={`Unhealthy: ${unhealthy}`} title={`Unhealthy: ${unhealthy}`}>
            ⚠
          </span>
        )}
        <strong>{item.type === 'Adapter' ? <a href={`#/adapters/${encodeURIComponent(item.id)}`}>{item.id}</a> : item.id}</strong>
        <div className="muted small">{item.description}</div>
      </td>
      <td>
        <StateBadges item={item} />
        {item.detail && <div className="muted small">{localizeTimestamps(item.detail)}</div>}
        <StateTimeline item={item} />
      </td>
      {adapters && (
        <td>
          <span className={CONNECTION_CLASS[item.connection?.state ?? 'OFFLINE']}>{item.connection?.state ?? 'OFFLINE'}</span>
          {item.connection?.detail && <div className="muted small">{localizeTimestamps(item.connection.detail)}</div>}
        </td>
      )}
      <td>{item.version}</td>
      <td>{formatUptime(item.uptime)}</td>
      <td>{formatItemMemory(item)}</td>
      <td>{formatItemPid(item)}</td>
      {!adapters && (
        <td className="small">
          {applicationFigures(item).map((line) => (
            <div key={line}>{line}</div>
          ))}
          {applicationFigures(item).length === 0 && <span className="muted">none yet</span>}
        </td>
      )}
      {adapters && <td>{item.restartCount ?? 0}</td>}
      {adapters && (
        <td>
          <LastCrash item={item} />
        </td>
      )}
      <td>
        <LifecycleActions item={item} />
      </td>
    </tr>
  );
}

function LastCrash({ item }: { item: HealthItem }) {
  const crash = item.lastCrash;
  if (!crash) return <span className="muted">none</span>;
  return (
    <details className="health-crash">
      <summary>
        {new Date(crash.at).toLocaleString()} · {crash.signal ? `signal ${crash.signal}` : `exit code ${crash.exitCode}`}
      </summary>
      <p>{crash.message}</p>
      {item.nextRestartAt && <p className="warn">Next restart at {new Date(item.nextRestartAt).toLocaleTimeString()}</p>}
      {crash.stderr.length > 0 ? <pre aria-label="Last stderr lines">{crash.stderr.join('\n')}</pre> : <p className="muted">It wrote nothing to stderr.</p>}
    </details>
  );
}

/** What stopping an application refuses, where the console knows it. */
const STOP_WHAT: Record<string, string> = {
  OperationsManager: 'Job starts are refused (503) until it is started again; running jobs go on.',
};

/** Start, stop (after asking) and restart of an adapter instance or an application. */
export function LifecycleActions({ item }: { item: HealthItem }) {
  const client = useQueryClient();
  const adapter = item.type === 'Adapter';
  const action = useMutation({
    mutationFn: (which: Action) => call(`${adapter ? 'adapters' : 'applications'}.${which}`, { params: { name: item.id } }),
    onSettled: () => refreshAfter(client, adapter ? 'adapters' : 'applications'),
  });
  const running = item.state === 'RUNNING';
  const busy = action.isPending;
  return (
    <div className="health-actions">
      <button type="button" disabled={busy || running} onClick={() => action.mutate('start')} aria-label={`Start ${item.id}`}>
        Start
      </button>
      <ConfirmAction
        label="Stop"
        ariaLabel={`Stop ${item.id}`}
        disabled={busy || !running}
        title={`Stop ${adapter ? 'the adapter' : 'the application'} ${item.id}?`}
        confirmLabel={`Yes, stop ${item.id}`}
        cancelLabel="Keep it running"
        action={() => action.mutateAsync('stop')}
        done={() => `${item.id} stopped: Start brings it back.`}
      >
        <p>{adapter ? `Tasks that call ${item.id} fail until it is started again.` : STOP_WHAT[item.id] ?? `What ${item.id} serves is refused until it is started again.`}</p>
      </ConfirmAction>
      <button type="button" disabled={busy} onClick={() => action.mutate('restart')} aria-label={`Restart ${item.id}`}>
        Restart
      </button>
      {busy && <span className="spinner" aria-hidden />}
      {action.isError && <div className="error small">{action.error.message}</div>}
    </div>
  );
}
