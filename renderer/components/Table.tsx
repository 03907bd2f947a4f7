// The console's list table: columns that sort when they say how, an optional selection
// (a checkbox a row and one for the rows shown), a sentence when there is nothing to list,
// and pages past `pageSize` rows. Sorting and paging are in the browser: for lists the
// console answers whole (workflows, transformations, adapters). The Jobs list, paged by
// the server, keeps its own virtualised table and uses the same sort header (SortHeader).
import { useState, type ReactNode } from 'react';

export type SortOrder = 'asc' | 'desc';

export interface Column<T> {
  id: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** What the column sorts by; a column without it does not sort. */
  sortValue?: (row: T) => string | number | undefined;
  className?: string;
}

export interface TableSelection {
  selected: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
  /** A row's checkbox's accessible name ("Select workflow X"). */
  label: (key: string) => string;
}

export interface TableProps<T> {
  /** The table's accessible name. */
  label: string;
  rows: readonly T[];
  columns: Column<T>[];
  rowKey: (row: T) => string;
  /** What is said instead of the table when there are no rows (the reason, and what to do). */
  empty: ReactNode;
  /** The column sorted by at first, and its order. */
  initialSort?: { column: string; order: SortOrder };
  pageSize?: number;
  select?: TableSelection;
  rowProps?: (row: T) => { className?: string; 'aria-label'?: string };
  className?: string;
}

const compare = (a: string | number | undefined, b: string | number | undefined): number => {
  if (a === b) return 0;
  if (a === undefined) return 1;
  if (b === undefined) return -1;
  return typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: 'base' });
};

/** Rows sorted by a column (stable: equal rows keep their order; missing values last). */
export function sortRows<T>(rows: readonly T[], value: (row: T) => string | number | undefined, order: SortOrder): T[] {
  return rows
    .map((row, index) => ({ row, index, key: value(row) }))
    .sort((a, b) => {
      if (a.key === undefined || b.key === undefined) return compare(a.key, b.key) || a.index - b.index;
      return (order === 'asc' ? compare(a.key, b.key) : compare(b.key, a.key)) || a.index - b.index;
    })
    .map((entry) => entry.row);
}

/** A column header that sorts: a button, `aria-sort` on the header, an arrow that shows the order. */
export function SortHeader(props: { title: ReactNode; order: SortOrder | undefined; onSort: () => void; className?: string; as?: 'th' | 'span' }) {
  const Tag = props.as ?? 'th';
  const sort = props.order === 'asc' ? 'ascending' : props.order === 'desc' ? 'descending' : undefined;
  return (
    <Tag role="columnheader" aria-sort={sort} className={props.className}>
      <button type="button" className="sort" onClick={props.onSort}>
        {props.title}
        <span aria-hidden> {props.order === 'asc' ? '▲' : props.order === 'desc' ? '▼' : '↕'}</span>
      </button>
    </Tag>
  );
}

export function Table<T>(props: TableProps<T>) {
  const [sort, setSort] = useState(props.initialSort);
  const [page, setPage] = useState(0);
  const column = props.columns.find((c) => c.id === sort?.column);
  const sorted = column?.sortValue && sort ? sortRows(props.rows, column.sortValue, sort.order) : [...props.rows];
  const size = props.pageSize ?? sorted.length;
  const pages = Math.max(1, Math.ceil(sorted.length / Math.max(1, size)));
  const current = Math.min(page, pages - 1);
  const shown = sorted.slice(current * size, current * size + size);
  if (props.rows.length === 0) return <p className="muted table-empty">{props.empty}</p>;

  const select = props.select;
  const shownKeys = shown.map(props.rowKey);
  const allShown = select !== undefined && shownKeys.length > 0 && shownKeys.every((k) => select.selected.has(k));
  const toggle = (keys: string[], on: boolean) => {
    if (!select) return;
    const next = new Set(select.selected);
    for (const key of keys) {
      if (on) next.add(key);
      else next.delete(key);
    }
    select.onChange(next);
  };
  const sortBy = (id: string) => setSort(sort?.column === id ? { column: id, order: sort.order === 'asc' ? 'desc' : 'asc' } : { column: id, order: 'asc' });

  return (
    <>
      <table aria-label={props.label} className={props.className}>
        <thead>
          <tr>
            {select && (
              <th>
                <input type="checkbox" checked={allShown} onChange={(e) => toggle(shownKeys, e.target.checked)} aria-label={`Select the ${props.label.toLowerCase()} shown`} />
              </th>
            )}
            {props.columns.map((c) =>
              c.sortValue ? (
                <SortHeader key={c.id} title={c.header} order={sort?.column === c.id ? sort.order : undefined} onSort={() => sortBy(c.id)} className={c.className} />
              ) : (
                <th key={c.id} className={c.className}>
                  {c.header}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>
          {shown.map((row) => {
            const key = props.rowKey(row);
            const extra = props.rowProps?.(row) ?? {};
            const chosen = select?.selected.has(key);
            return (
              <tr key={key} {...extra} className={[extra.className, chosen ? 'selected' : undefined].filter(Boolean).join(' ') || undefined}>
                {select && (
                  <td>
                    <input type="checkbox" checked={chosen} onChange={(e) => toggle([key], e.target.checked)} aria-label={select.label(key)} />
                  </td>
                )}
                {props.columns.map((c) => (
                  <td key={c.id} className={c.className}>
                    {c.cell(row)}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
      {pages > 1 && (
        <nav className="pager" aria-label={`Pages of ${props.label.toLowerCase()}`}>
          <button type="button" disabled={current === 0} onClick={() => setPage(current - 1)}>
            Previous
          </button>{' '}
          <span aria-live="polite">
            {current * size + 1}–{current * size + shown.length} of {sorted.length}
          </span>{' '}
          <button type="button" disabled={current >= pages - 1} onClick={() => setPage(current + 1)}>
            Next
          </button>
        </nav>
      )}
    </>
  );
}
