// The Jobs list's filters: status with counts (and "waiting for an operator"),
// workflow pick list with counts, start time range, and free text.
import { useEffect, useState } from 'react';
import type { JobsCounts, JobsStatusFilter } from '../../core/contract/jobs';
import { jobStatus } from '../shell/status';
import { SearchBox } from '../components/SearchBox';
import { fromLocalInput, hasFilters, toLocalInput, type JobsFilters } from './filters';

const STATUSES: JobsStatusFilter[] = ['error', 'waiting', 'running', 'paused', 'complete', 'canceled'];

export function JobsFiltersBar({ filters, counts, onChange }: { filters: JobsFilters; counts?: JobsCounts; onChange: (next: JobsFilters) => void }) {
  const [text, setText] = useState(filters.q ?? '');
  useEffect(() => setText(filters.q ?? ''), [filters.q]);
  // Free text is sent once typing pauses.
  useEffect(() => {
    if ((filters.q ?? '') === text.trim()) return;
    const timer = window.setTimeout(() => onChange({ ...filters, q: text.trim() || undefined }), 300);
    return () => window.clearTimeout(timer);
  }, [text, filters, onChange]);
  // A job waiting for an operator is counted there only (not also as running or paused): the chips add up to all.
  const all = counts ? Object.values(counts.statuses).reduce((n, c) => n + c, 0) : undefined;
  const workflows = counts?.workflows ?? [];
  return (
    <div className="jobs-filters" role="search" aria-label="Filter the jobs">
      <div className="status-filter" role="group" aria-label="Status">
        <button type="button" aria-pressed={!filters.status} onClick={() => onChange({ ...filters, status: undefined })}>
          all{all !== undefined && <span className="count"> {all.toLocaleString()}</span>}
        </button>
        {STATUSES.map((status) => {
          const word = jobStatus(status, status === 'waiting' ? 1 : 0);
          const count = counts?.statuses[status];
          return (
            <button key={status} type="button" aria-pressed={filters.status === status} onClick={() => onChange({ ...filters, status: filters.status === status ? undefined : status })}>
              <span className={`dot tone-${word.tone}`} aria-hidden /> {word.word}
              {count !== undefined && <span className="count"> {count.toLocaleString()}</span>}
            </button>
          );
        })}
      </div>
      <label>
        Workflow{' '}
        <select value={filters.workflow ?? ''} onChange={(e) => onChange({ ...filters, workflow: e.target.value || undefined })}>
          <option value="">every workflow</option>
          {workflows.map((w) => (
            <option key={w.name} value={w.name}>
              {w.name} ({w.count.toLocaleString()})
            </option>
          ))}
          {filters.workflow && !workflows.some((w) => w.name === filters.workflow) && <option value={filters.workflow}>{filters.workflow}</option>}
        </select>
      </label>
      <label>
        Started from <input type="datetime-local" value={toLocalInput(filters.from)} onChange={(e) => onChange({ ...filters, from: fromLocalInput(e.target.value) })} />
      </label>
      <label>
        to <input type="datetime-local" value={toLocalInput(filters.to)} onChange={(e) => onChange({ ...filters, to: fromLocalInput(e.target.value) })} />
      </label>
      <SearchBox label="Search" ariaLabel="Search description, id or variables" value={text} onChange={setText} placeholder="description, id or variables" />
      {hasFilters(filters) && (
        <button type="button" className="link" onClick={() => onChange({ sort: filters.sort, order: filters.order })}>
          Clear filters
        </button>
      )}
    </div>
  );
}
