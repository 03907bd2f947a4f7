// The Indexing tab of the active profile: per declared collection, how many indexes
// its application declares, how many are there as declared, the operator's own
// (external) ones, and whether it is indexed; "Run indexing" per collection and for
// all, with progress while a build runs and the failure of the last build.
import { Fragment, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CollectionIndexStatus as Status, IndexDescription } from '../../core/contract/indexes';
import { call } from '../api/client';
import { Alert } from '../shell/Alert';
import { qk, refreshAfter } from '../api/keys';

/** How often the tab asks while a build runs. */
const POLL_MS = 700;

function keyText(key: IndexDescription['key']) {
  return Object.entries(key)
    .map(([field, direction]) => `${field}: ${direction}`)
    .join(', ');
}

function StatusCell({ row }: { row: Status }) {
  if (row.running) {
    const progress = row.progress;
    return (
      <span className="indexing-running">
        <span className="spinner" aria-hidden="true" /> Indexing
        {progress ? ` ${progress.done} of ${progress.total} (${progress.index})` : '…'}
      </span>
    );
  }
  if (row.failure) {
    return (
      <span>
        <span className="badge bad">Failed</span> <span className="bad">{row.failure.message}</span>
      </span>
    );
  }
  if (row.indexed) return <span className="badge good">Indexed</span>;
  const parts = [row.missing.length && `${row.missing.length} missing`, row.misnamed.length && `${row.misnamed.length} misnamed`].filter(Boolean);
  return <span className="badge warn">Not indexed: {parts.join(', ')}</span>;
}

function IndexList({ title, items, empty, render }: { title: string; items: IndexDescription[]; empty: string; render?: (i: IndexDescription) => string }) {
  return (
    <div className="index-list">
      <h4>{title}</h4>
      {items.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul aria-label={title}>
          {items.map((item) => (
            <li key={`${item.name}-${item.found?.name ?? ''}`}>
              <code>{item.name}</code>{' '}
              <span className="muted">{`{ ${keyText(item.key)} }${item.unique ? ' unique' : ''}${item.partialFilterExpression ? ` partial ${JSON.stringify(item.partialFilterExpression)}` : ''}`}</span>
              {render && <span> {render(item)}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** How the index found differs from the declared one: its name, its unique flag, its partial filter. */
function misnamedText(i: IndexDescription): string {
  const found = i.found;
  if (!found) return 'indexing re-creates it';
  const name = found.name === i.name ? 'exists' : `exists as "${found.name}"`;
  const unique = found.unique !== i.unique ? (found.unique ? ' (unique)' : ' (not unique)') : '';
  const wanted = JSON.stringify(i.partialFilterExpression ?? null);
  const has = JSON.stringify(found.partialFilterExpression ?? null);
  const partial = wanted === has ? '' : found.partialFilterExpression ? ` with the partial filter ${has}` : ' without its partial filter';
  return `${name}${unique}${partial}; indexing drops and re-creates it`;
}

function Detail({ row }: { row: Status }) {
  return (
    <div className="index-detail" aria-label={`Indexes of ${row.collection}`} role="region">
      {row.failure && (
        <Alert look="error-banner">
          The last build failed on <code>{row.failure.index}</code>: {row.failure.message}
        </Alert>
      )}
      <IndexList title="Missing" items={row.missing} empty="None: every declared index exists." />
      <IndexList
        title="Misnamed"
        items={row.misnamed}
        empty="None."
        render={misnamedText}
      />
      <IndexList
        title="External"
        items={row.external}
        empty="None."
        render={(i) => (i.serves ? `(the site's own, not the console's; serves ${i.serves}; never dropped)` : '(not declared by any application; never dropped)')}
      />
    </div>
  );
}

export function IndexingTab() {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<Record<string, boolean>>({});
  const status = useQuery({
    queryKey: qk.indexes(),
    queryFn: () => call('indexes.statusAll'),
    refetchInterval: (query) => (query.state.data?.results.some((r) => r.running) ? POLL_MS : false),
  });
  const refresh = () => refreshAfter(queryClient, 'indexes');
  const build = useMutation({
    mutationFn: (collections: string[]) => Promise.all(collections.map((collectionName) => call('indexes.build', { params: { collectionName } }))),
    onSettled: refresh,
  });

  const rows = status.data?.results ?? [];
  const anyRunning = rows.some((r) => r.running);
  return (
    <section aria-label="Indexing">
      <h2>Indexing</h2>
      <p className="muted">
        The indexes each application declares for its collections, on this profile&apos;s store. Indexing a big collection loads the
        database: run it in a maintenance window.
      </p>
      {status.isPending && <p>Loading the index status…</p>}
      {status.isError && (
        <Alert>
          Cannot read the index status: {status.error.message}
        </Alert>
      )}
      {build.isError && (
        <Alert>
          Indexing did not start: {build.error.message}
        </Alert>
      )}
      {status.data && rows.length === 0 && <p className="muted">No application declares indexes.</p>}
      {rows.length > 0 && (
        <>
          <p>
            <button type="button" className="primary" disabled={build.isPending} onClick={() => build.mutate(rows.map((r) => r.collection))}>
              Run indexing for all
            </button>{' '}
            {anyRunning && <span className="muted">Builds are running; the table follows them.</span>}
          </p>
          <table className="index-table" aria-label="Indexes per collection">
            <thead>
              <tr>
                <th>Collection</th>
                <th>Application</th>
                <th>Total</th>
                <th>Current</th>
                <th>External</th>
                <th>Status</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <Fragment key={row.collection}>
                  <tr aria-label={row.collection}>
                    <td>
                      <code>{row.collection}</code>
                    </td>
                    <td>{row.application}</td>
                    <td>{row.total}</td>
                    <td>{row.current}</td>
                    <td>{row.external.length}</td>
                    <td>
                      <StatusCell row={row} />
                    </td>
                    <td className="actions">
                      <button
                        type="button"
                        aria-label={`Run indexing on ${row.collection}`}
                        disabled={row.running || build.isPending}
                        onClick={() => build.mutate([row.collection])}
                      >
                        Run indexing
                      </button>{' '}
                      <button
                        type="button"
                        aria-label={`Details of ${row.collection}`}
                        aria-expanded={Boolean(open[row.collection])}
                        onClick={() => setOpen((o) => ({ ...o, [row.collection]: !o[row.collection] }))}
                      >
                        Details
                      </button>
                    </td>
                  </tr>
                  {open[row.collection] && (
                    <tr className="index-detail-row">
                      <td colSpan={7}>
                        <Detail row={row} />
                      </td>
                    </tr>
                  )}
                </Fragment>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
