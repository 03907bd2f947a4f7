// The jobs of the active profile, newest first: a virtualised list (one DOM row
// per visible job) over server-side pages, so it stays smooth with 100,000 jobs.
// Filters by status, workflow and start time; visible pages refresh live.
import { useMemo, useRef, useState } from 'react';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { JobStatus, JobSummary } from '../../core/contract/jobs';
import { call } from '../api/client';
import { formatDuration, formatTime, statusClass } from './format';

const PAGE = 100;
const ROW_HEIGHT = 34;
const REFRESH_MS = 3000;
const STATUSES: JobStatus[] = ['running', 'paused', 'error', 'canceled', 'complete'];

interface Filters {
  status?: JobStatus;
  workflow?: string;
  from?: number;
  to?: number;
}

const fetchPage = (filters: Filters, page: number) => call('jobs.list', { query: { ...filters, skip: page * PAGE, limit: PAGE } });
const toMs = (local: string) => (local ? new Date(local).getTime() : undefined);

function Row({ job }: { job: JobSummary }) {
  return (
    <a className="jobs-row" href={`#/jobs/${encodeURIComponent(job._id)}`} role="row" aria-label={`${job.name} ${job.status} ${job._id}`}>
      <span role="cell">{formatTime(job.metrics.start_time)}</span>
      <span role="cell" className="jobs-name">{job.name}</span>
      <span role="cell" className="muted jobs-desc">{job.description}</span>
      <span role="cell">
        <span className={statusClass(job.status)}>{job.status}</span>
      </span>
      <span role="cell" className="muted small">{formatDuration(job.metrics.start_time, job.metrics.end_time)}</span>
      <span role="cell" className="muted small jobs-id">{job._id}</span>
    </a>
  );
}

export function JobsList() {
  const [status, setStatus] = useState<JobStatus | ''>('');
  const [workflow, setWorkflow] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [live, setLive] = useState(true);
  const filters = useMemo<Filters>(
    () => ({ status: status || undefined, workflow: workflow.trim() || undefined, from: toMs(from), to: toMs(to) }),
    [status, workflow, from, to],
  );
  const refetchInterval = live ? REFRESH_MS : false;
  const first = useQuery({ queryKey: ['jobs.list', filters, 0], queryFn: () => fetchPage(filters, 0), refetchInterval });
  const total = first.data?.total ?? 0;

  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 20,
    initialRect: { width: 1000, height: 600 },
  });
  const items = virtualizer.getVirtualItems();
  const pages = [...new Set(items.map((item) => Math.floor(item.index / PAGE)))];
  const pageQueries = useQueries({
    queries: pages.map((page) => ({ queryKey: ['jobs.list', filters, page], queryFn: () => fetchPage(filters, page), refetchInterval })),
  });
  const byPage = new Map(pages.map((page, i) => [page, pageQueries[i]?.data]));

  return (
    <section aria-label="Jobs">
      <h1>Jobs</h1>
      <div className="jobs-filters" role="search">
        <label>
          Status{' '}
          <select value={status} onChange={(e) => setStatus(e.target.value as JobStatus | '')}>
            <option value="">any</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          Workflow <input value={workflow} onChange={(e) => setWorkflow(e.target.value)} placeholder="exact name" />
        </label>
        <label>
          Started from <input type="datetime-local" value={from} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label>
          to <input type="datetime-local" value={to} onChange={(e) => setTo(e.target.value)} />
        </label>
        <label>
          <input type="checkbox" checked={live} onChange={(e) => setLive(e.target.checked)} /> Live refresh
        </label>
        <span className="muted" aria-live="polite">
          {first.data ? `${total.toLocaleString()} job${total === 1 ? '' : 's'}` : ''}
        </span>
      </div>
      {first.isPending && <p>Loading jobs…</p>}
      {first.isError && <p className="error">Cannot list the jobs: {first.error.message}</p>}
      {first.data && total === 0 && <p className="muted">No jobs{filters.status || filters.workflow || filters.from || filters.to ? ' match these filters' : ' yet: start one from the Workflows page'}.</p>}
      <div role="table" aria-label="Jobs list" aria-rowcount={total} className="jobs-table" hidden={!first.data || total === 0}>
        <div role="row" className="jobs-row jobs-head">
          <span role="columnheader">Started</span>
          <span role="columnheader">Workflow</span>
          <span role="columnheader">Description</span>
          <span role="columnheader">Status</span>
          <span role="columnheader">Took</span>
          <span role="columnheader">Id</span>
        </div>
        <div ref={scroller} className="jobs-scroller">
          <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((item) => {
              const job = byPage.get(Math.floor(item.index / PAGE))?.results[item.index % PAGE];
              return (
                <div key={item.key} style={{ position: 'absolute', top: 0, left: 0, right: 0, height: item.size, transform: `translateY(${item.start}px)` }}>
                  {job ? <Row job={job} /> : <div className="jobs-row muted">Loading…</div>}
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </section>
  );
}
