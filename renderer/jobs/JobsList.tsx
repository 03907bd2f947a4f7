// The jobs of the active profile: a virtualised list (one DOM row per visible job)
// over server-side pages, so it stays smooth with 100,000 jobs. Filters (kept in the
// URL), counts per status and workflow, sortable columns, the error in the row, and
// a selection to retry, pause, resume or cancel many jobs at once.
import { useCallback, useMemo, useRef, useState } from 'react';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { JobSortField, JobSummary } from '../../core/contract/jobs';
import { call } from '../api/client';
import { replaceParams, useRoute } from '../shell/route';
import { jobStatus } from '../shell/status';
import { StatusBadge } from '../shell/StatusBadge';
import { formatDuration, formatTime, initiatorOf, jobErrorLine, waitingUntilText } from './format';
import { filtersFromRoute, filtersToParams, hasFilters, matchingFilter, type JobsFilters } from './filters';
import { JobsFiltersBar } from './JobsFiltersBar';
import { JobsBulkBar } from './JobsBulkBar';
import { SortHeader } from '../components/Table';
import { qk } from '../api/keys';

const PAGE = 100;
// Three short lines a row: the workflow's name wraps rather than being cut (two names that differ at the end stay apart).
const ROW_HEIGHT = 54;
const REFRESH_MS = 3000;

const fetchPage = (filters: JobsFilters, page: number) =>
  call('jobs.list', { query: { ...filters, skip: page * PAGE, limit: PAGE, ...(page === 0 ? { counts: 'true' as const } : {}) } });

const COLUMNS: { field?: JobSortField; title: string; className?: string }[] = [
  { field: 'start_time', title: 'Started, ended, by' },
  { field: 'name', title: 'Workflow' },
  { title: 'Description, current task' },
  { field: 'status', title: 'Status and id' },
  { title: 'Error' },
  // Longest first on the first click; the server sorts every matching job (sort=duration), not the page shown.
  { field: 'duration', title: 'Took', className: 'wide-only' },
];

/** Times and durations sort newest (longest) first; names and statuses A to Z. */
const firstOrder = (field: JobSortField): 'asc' | 'desc' => (field === 'start_time' || field === 'end_time' || field === 'duration' ? 'desc' : 'asc');

/** The orders a narrow window offers where the "Took" column gives its room to the others. */
const NARROW_SORTS: { sort: JobSortField; order: 'asc' | 'desc'; label: string }[] = [
  { sort: 'start_time', order: 'desc', label: 'newest first' },
  { sort: 'start_time', order: 'asc', label: 'oldest first' },
  { sort: 'duration', order: 'desc', label: 'longest first' },
  { sort: 'duration', order: 'asc', label: 'shortest first' },
];

function NarrowSort({ filters, onChange }: { filters: JobsFilters; onChange: (next: JobsFilters) => void }) {
  const sort = filters.sort ?? 'start_time';
  const value = `${sort}:${filters.order ?? firstOrder(sort)}`;
  const known = NARROW_SORTS.some((o) => `${o.sort}:${o.order}` === value);
  return (
    <label className="narrow-only">
      Sort{' '}
      <select
        value={value}
        onChange={(e) => {
          const picked = NARROW_SORTS.find((o) => `${o.sort}:${o.order}` === e.target.value);
          if (picked) onChange({ ...filters, sort: picked.sort, order: picked.order });
        }}
      >
        {!known && <option value={value}>as the column headers say</option>}
        {NARROW_SORTS.map((o) => (
          <option key={`${o.sort}:${o.order}`} value={`${o.sort}:${o.order}`}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** `HH:MM:SS` when on the day it started, else the full time. */
function endTime(start: number, end: number | undefined): string {
  if (!end) return '';
  const full = formatTime(end);
  return full.slice(0, 10) === formatTime(start).slice(0, 10) ? full.slice(11) : full;
}

function Row({ job, checked, onCheck }: { job: JobSummary; checked: boolean; onCheck: (on: boolean) => void }) {
  const status = jobStatus(job.status, job.operatorTasks);
  const href = `#/jobs/${encodeURIComponent(job._id)}`;
  const { start_time: start, end_time: end } = job.metrics;
  const took = formatDuration(start, end);
  const by = initiatorOf(job.metrics.user);
  return (
    <div
      className={checked ? 'jobs-row selected' : 'jobs-row'}
      role="row"
      aria-label={`${job.name} ${status.word} ${job._id}`}
      aria-selected={checked}
      onClick={(e) => {
        if (!(e.target as HTMLElement).closest('input,a')) window.location.hash = href;
      }}
    >
      <span role="cell">
        <input type="checkbox" checked={checked} onChange={(e) => onCheck(e.target.checked)} aria-label={`Select job ${job._id}`} />
      </span>
      <span role="cell" className="jobs-lines">
        <span>{formatTime(start)}</span>
        <span className="muted small">
          {end ? `ended ${endTime(start, end)} · ${took}` : job.status === 'running' || job.status === 'paused' ? `${job.status} for ${formatDuration(start, Date.now())}` : 'no end time'}
        </span>
        <span className="muted small" title={by} aria-label={`initiator of ${job._id}`}>
          by {by}
        </span>
      </span>
      <span role="cell" className="jobs-name">
        <a href={href} title={job.name}>
          {job.name}
        </a>
        {job.simulated && (
          <span className="badge stub" aria-label={`${job._id} used a simulated adapter`} title="A simulated adapter answered some of its tasks">
            SIMULATED
          </span>
        )}
      </span>
      <span role="cell" className="jobs-lines">
        <span className="muted jobs-desc" title={job.description}>
          {job.description}
        </span>
        {job.currentTask && (
          <span className="small" title={job.currentTask} aria-label={`current task of ${job._id}`}>
            at {job.currentTask}
          </span>
        )}
        {job.waitingUntil !== undefined && (
          <span className="small" aria-label={`timer of ${job._id}`} title={formatTime(job.waitingUntil)}>
            {waitingUntilText(job.waitingUntil)}
          </span>
        )}
      </span>
      <span role="cell" className="jobs-lines">
        <StatusBadge status={status} />
        <span className="muted small jobs-id">{job._id}</span>
      </span>
      <span role="cell" className="error small jobs-error" title={jobErrorLine(job.error)}>
        {jobErrorLine(job.error)}
      </span>
      <span role="cell" className="muted small wide-only">
        {took}
      </span>
    </div>
  );
}

export function JobsList() {
  const route = useRoute();
  const filters = useMemo(() => filtersFromRoute(route), [route]);
  const setFilters = useCallback((next: JobsFilters) => {
    // Another filter matches other jobs: a selection of all matching is not carried over.
    setAllMatching(false);
    replaceParams(filtersToParams(next));
  }, []);
  const [live, setLive] = useState(true);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  // "Select all N matching": the bulk action then applies to the filter, not to the ids loaded.
  const [allMatching, setAllMatching] = useState(false);
  const clearSelection = () => {
    setSelected(new Set());
    setAllMatching(false);
  };
  const refetchInterval = live ? REFRESH_MS : false;
  const first = useQuery({ queryKey: qk.jobs(filters, 0), queryFn: () => fetchPage(filters, 0), refetchInterval });
  const total = first.data?.metadata.total ?? 0;

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
    queries: pages.map((page) => ({ queryKey: qk.jobs(filters, page), queryFn: () => fetchPage(filters, page), refetchInterval })),
  });
  const byPage = new Map(pages.map((page, i) => [page, pageQueries[i]?.data]));
  const loaded = [...byPage.values()].flatMap((p) => p?.data ?? []);
  const allLoadedSelected = loaded.length > 0 && loaded.every((j) => selected.has(j._id));

  const check = (id: string, on: boolean) => {
    // Unticking one row of "all matching" leaves the loaded rows but that one selected.
    const next = allMatching ? new Set(loaded.map((j) => j._id)) : new Set(selected);
    setAllMatching(false);
    if (on) next.add(id);
    else next.delete(id);
    setSelected(next);
  };
  const sortBy = (field: JobSortField) => {
    const current = filters.sort ?? 'start_time';
    const order = current === field ? ((filters.order ?? firstOrder(field)) === 'asc' ? 'desc' : 'asc') : firstOrder(field);
    setFilters({ ...filters, sort: field, order });
  };
  const sortOrder = (field: JobSortField) => ((filters.sort ?? 'start_time') === field ? (filters.order ?? firstOrder(field)) : undefined);

  return (
    <section aria-label="Jobs">
      <div className="page-header">
        <h1>Jobs</h1>
        <NarrowSort filters={filters} onChange={setFilters} />
        <label>
          <input type="checkbox" checked={live} onChange={(e) => setLive(e.target.checked)} /> Live refresh
        </label>
      </div>
      <JobsFiltersBar filters={filters} counts={first.data?.metadata.counts} onChange={setFilters} />
      <p className="muted" aria-live="polite">
        {first.data ? `${total.toLocaleString()} job${total === 1 ? '' : 's'}` : ''}
      </p>
      <JobsBulkBar
        target={allMatching ? { filter: matchingFilter(filters), count: total } : { jobIds: [...selected] }}
        canSelectAll={!allMatching && allLoadedSelected && total > selected.size}
        total={total}
        onSelectAll={() => setAllMatching(true)}
        onClear={clearSelection}
      />
      {first.isPending && <p>Loading jobs…</p>}
      {first.isError && <p className="error">Cannot list the jobs: {first.error.message}</p>}
      {first.data && total === 0 && <p className="muted">No jobs{hasFilters(filters) ? ' match these filters' : ' yet: start one from the Workflows page'}.</p>}
      <div role="table" aria-label="Jobs list" aria-rowcount={total} className="jobs-table" hidden={!first.data || total === 0}>
        <div role="row" className="jobs-row jobs-head">
          <span role="columnheader">
            <input
              type="checkbox"
              checked={allMatching || allLoadedSelected}
              onChange={(e) => (e.target.checked ? setSelected(new Set([...selected, ...loaded.map((j) => j._id)])) : clearSelection())}
              aria-label="Select the jobs shown"
            />
          </span>
          {COLUMNS.map(({ field, title, className }) =>
            field ? (
              <SortHeader key={title} as="span" title={title} order={sortOrder(field)} onSort={() => sortBy(field)} className={className} />
            ) : (
              <span role="columnheader" key={title} className={className}>
                {title}
              </span>
            ),
          )}
        </div>
        <div ref={scroller} className="jobs-scroller">
          <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((item) => {
              const job = byPage.get(Math.floor(item.index / PAGE))?.data[item.index % PAGE];
              return (
                <div key={item.key} style={{ position: 'absolute', top: 0, left: 0, right: 0, height: item.size, transform: `translateY(${item.start}px)` }}>
                  {job ? <Row job={job} checked={allMatching || selected.has(job._id)} onCheck={(on) => check(job._id, on)} /> : <div className="jobs-row muted">Loading…</div>}
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </section>
  );
}
