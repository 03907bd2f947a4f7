// The Adapters page: the adapter instances of the active profile (state, STUB, connection), a new
// instance from a package's sample and properties schema, import of an exported service config,
// and one instance's detail (`#/adapters/<name>`): its properties form, lifecycle, methods, log.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call } from '../api/client';
import { StateBadges } from '../health/HealthTable';
import { useRoute } from '../shell/route';
import { AdapterDetail } from './AdapterDetail';
import { ImportAdapter, NewAdapter } from './NewAdapter';
import { Recordings } from './Recordings';
import { qk } from '../api/keys';

export const REFRESH_MS = 3000;

export function AdaptersPage() {
  const selected = useRoute().segments[1];
  const list = useQuery({
    queryKey: qk.health('health.adapters', { limit: 1000 }),
    queryFn: () => call('health.adapters', { query: { limit: 1000 } }),
    refetchInterval: REFRESH_MS,
    placeholderData: keepPreviousData,
  });
  return (
    <section>
      <h1>Adapters</h1>
      {list.isPending && <p>Loading the adapters…</p>}
      {list.isError && <p className="error">Cannot read the adapters: {list.error.message}</p>}
      {list.data && list.data.results.length === 0 && <p className="muted">No adapter instances yet: create one from a package below.</p>}
      {list.data && list.data.results.length > 0 && (
        <table aria-label="Adapter instances" className="health-table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Package</th>
              <th>State</th>
              <th>Connection</th>
            </tr>
          </thead>
          <tbody>
            {list.data.results.map((item) => (
              <tr key={item.id} aria-label={item.id} className={item.id === selected ? 'selected' : undefined}>
                <td>
                  <a href={`#/adapters/${encodeURIComponent(item.id)}`}>{item.id}</a>
                </td>
                <td>
                  {item.package_id || '—'} <span className="muted small">{item.version}</span>
                </td>
                <td>
                  <StateBadges item={item} />
                  {item.detail && <div className="muted small">{item.detail}</div>}
                </td>
                <td>
                  <span className={item.connection?.state === 'ONLINE' ? 'badge good' : item.connection?.state === 'DEGRADED' ? 'badge warn' : 'badge bad'}>
                    {item.connection?.state ?? 'OFFLINE'}
                  </span>
                  {item.connection?.detail && <span className="muted small">{item.connection.detail}</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {selected && <AdapterDetail key={selected} name={selected} health={list.data?.results.find((i) => i.id === selected)} />}
      <NewAdapter />
      <ImportAdapter />
      <Recordings />
    </section>
  );
}
