// The Adapters page: the adapter instances of the active profile (state, STUB, connection), a new
// instance from a package's sample and properties schema, import of an exported service config,
// and one instance's detail (`#/adapters/<name>`): its properties form, lifecycle, methods, log.
import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { HealthItem } from '../../core/contract/health';
import { Table, type Column } from '../components/Table';
import { matchesSearch, SearchBox } from '../components/SearchBox';
import { call } from '../api/client';
import { StateBadges } from '../health/HealthTable';
import { useRoute } from '../shell/route';
import { AdapterDetail } from './AdapterDetail';
import { ImportAdapter, NewAdapter } from './NewAdapter';
import { Recordings } from './Recordings';
import { qk } from '../api/keys';

export const REFRESH_MS = 3000;

const connectionBadge = (state: string | undefined) => (state === 'ONLINE' ? 'badge good' : state === 'DEGRADED' ? 'badge warn' : 'badge bad');

const COLUMNS: Column<HealthItem>[] = [
  { id: 'name', header: 'Name', sortValue: (item) => item.id, cell: (item) => <a href={`#/adapters/${encodeURIComponent(item.id)}`}>{item.id}</a> },
  {
    id: 'package',
    header: 'Package',
    sortValue: (item) => item.package_id,
    cell: (item) => (
      <>
        {item.package_id || '—'} <span className="muted small">{item.version}</span>
      </>
    ),
  },
  {
    id: 'state',
    header: 'State',
    sortValue: (item) => item.state,
    cell: (item) => (
      <>
        <StateBadges item={item} />
        {item.detail && <div className="muted small">{item.detail}</div>}
      </>
    ),
  },
  {
    id: 'connection',
    header: 'Connection',
    sortValue: (item) => item.connection?.state ?? 'OFFLINE',
    cell: (item) => (
      <>
        <span className={connectionBadge(item.connection?.state)}>{item.connection?.state ?? 'OFFLINE'}</span>
        {item.connection?.detail && <span className="muted small">{item.connection.detail}</span>}
      </>
    ),
  },
];

export function AdaptersPage() {
  const selected = useRoute().segments[1];
  const list = useQuery({
    queryKey: qk.health('health.adapters', { limit: 1000 }),
    queryFn: () => call('health.adapters', { query: { limit: 1000 } }),
    refetchInterval: REFRESH_MS,
    placeholderData: keepPreviousData,
  });
  const [search, setSearch] = useState('');
  const shown = (list.data?.results ?? []).filter((item) => matchesSearch(search, item.id, item.package_id, item.state, item.connection?.state));
  return (
    <section>
      <h1>Adapters</h1>
      {list.isPending && <p>Loading the adapters…</p>}
      {list.isError && <p className="error">Cannot read the adapters: {list.error.message}</p>}
      {list.data && list.data.results.length > 0 && (
        <SearchBox
          label="Search adapters"
          value={search}
          onChange={setSearch}
          placeholder="name, package or state"
          status={search ? `${shown.length} of ${list.data.results.length} shown` : undefined}
        />
      )}
      {list.data && (
        <Table
          label="Adapter instances"
          className="health-table"
          rows={shown}
          columns={COLUMNS}
          rowKey={(item) => item.id}
          rowProps={(item) => ({ 'aria-label': item.id, className: item.id === selected ? 'selected' : undefined })}
          initialSort={{ column: 'name', order: 'asc' }}
          empty={search ? `No adapter matches “${search}”.` : 'No adapter instances yet: create one from a package below.'}
        />
      )}
      {selected && <AdapterDetail key={selected} name={selected} health={list.data?.results.find((i) => i.id === selected)} />}
      <NewAdapter />
      <ImportAdapter />
      <Recordings />
    </section>
  );
}
