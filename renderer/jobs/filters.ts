// The Jobs list's filters, kept in the URL (`#/jobs?status=error&workflow=…`) so a
// filtered list can be linked to, bookmarked, and is there again after Back.
import { JobSortField, JobsStatusFilter, type JobsFilter } from '../../core/contract/jobs';
import type { Route } from '../shell/route';

export interface JobsFilters {
  status?: JobsStatusFilter;
  workflow?: string;
  from?: number;
  to?: number;
  q?: string;
  sort?: JobSortField;
  order?: 'asc' | 'desc';
}

const num = (text: string | null) => (text && /^\d+$/.test(text) ? Number(text) : undefined);

export function filtersFromRoute(route: Route): JobsFilters {
  const p = route.params;
  const order = p.get('order');
  return {
    // A value the console does not know (an old link, a typo) is dropped rather than sent.
    status: JobsStatusFilter.safeParse(p.get('status')).data,
    workflow: p.get('workflow') || undefined,
    from: num(p.get('from')),
    to: num(p.get('to')),
    q: p.get('q') || undefined,
    sort: JobSortField.safeParse(p.get('sort')).data,
    order: order === 'asc' || order === 'desc' ? order : undefined,
  };
}

export function filtersToParams(filters: JobsFilters): Record<string, string | undefined> {
  return {
    status: filters.status,
    workflow: filters.workflow,
    from: filters.from?.toString(),
    to: filters.to?.toString(),
    q: filters.q,
    sort: filters.sort,
    order: filters.order,
  };
}

/** The filters a bulk action on "all matching" sends (the list's, without its order). */
export const matchingFilter = ({ status, workflow, from, to, q }: JobsFilters): JobsFilter => ({ status, workflow, from, to, q });

export const hasFilters = (f: JobsFilters) => !!(f.status || f.workflow || f.from || f.to || f.q);

/** `datetime-local` text ↔ ms since the epoch, in the browser's time zone. */
export const toLocalInput = (ms?: number) => {
  if (!ms) return '';
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
};
export const fromLocalInput = (text: string) => (text ? new Date(text).getTime() : undefined);
