// @vitest-environment happy-dom
// The Indexing tab against a scripted console behind the preload bridge.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CollectionIndexStatus } from '../../core/contract/indexes';
import { IndexingTab } from '../../renderer/indexing/IndexingTab';

afterEach(() => {
  cleanup();
  delete window.consoleApi;
});

const statusIndex = { key: { status: 1 as const, 'metrics.start_time': -1 as const }, name: 'status_1_metrics.start_time_-1', unique: false };

function row(collection: string, patch: Partial<CollectionIndexStatus> = {}): CollectionIndexStatus {
  return { collection, application: 'workflow_engine', indexed: true, running: false, total: 1, current: 1, missing: [], misnamed: [], external: [], ...patch };
}

/** A console whose builds take two status reads to finish. */
function scriptedConsole(rows: CollectionIndexStatus[], options: { failStatus?: string; failBuildOf?: string } = {}) {
  const state = new Map(rows.map((r) => [r.collection, r]));
  const reads = new Map<string, number>();
  const builds: string[] = [];
  const ok = (data: unknown) => ({ ok: true as const, data });
  window.consoleApi = {
    operations: {
      'indexes.statusAll': async () => {
        if (options.failStatus) return { ok: false as const, error: { statusCode: 503, error: 'Service Unavailable', message: options.failStatus } };
        for (const [name, r] of state) {
          if (!r.running) continue;
          const n = (reads.get(name) ?? 0) + 1;
          reads.set(name, n);
          if (n >= 2) {
            state.set(
              name,
              name === options.failBuildOf
                ? { ...r, running: false, progress: undefined, failure: { index: 'name_1', message: 'creating unique index "name_1" on workflows failed: duplicate key', at: '' } }
                : { ...r, running: false, progress: undefined, indexed: true, current: r.total, missing: [], misnamed: [] },
            );
          }
        }
        const results = [...state.values()];
        return ok({ results, total: results.length });
      },
      'indexes.build': async (input) => {
        const name = (input as { params: { collectionName: string } }).params.collectionName;
        builds.push(name);
        const r = state.get(name)!;
        const changed = r.missing.length + r.misnamed.length;
        if (changed > 0) state.set(name, { ...r, running: true, progress: { done: 0, total: changed, index: (r.missing[0] ?? r.misnamed[0])!.name } });
        return ok({ unchanged: r.total - changed, changed, total: r.total, running: changed > 0 });
      },
    },
  };
  return { builds };
}

function mount() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <IndexingTab />
    </QueryClientProvider>,
  );
}

const rowOf = (collection: string) => screen.getByRole('row', { name: collection });

describe('the Indexing tab', () => {
  it('shows one row per collection with total, current, external and status, and the detail of a row', async () => {
    scriptedConsole([
      row('jobs', {
        indexed: false,
        total: 3,
        current: 1,
        missing: [statusIndex],
        misnamed: [
          { key: { name: 1 }, name: 'name_1_metrics.start_time_-1', unique: false, found: { name: 'by_name', unique: false } },
          {
            key: { 'parent.job': 1 },
            name: 'parent.job_1',
            unique: false,
            partialFilterExpression: { 'parent.job': { $exists: true } },
            found: { name: 'parent.job_1', unique: false },
          },
        ],
        external: [{ key: { description: 1 }, name: 'my_own', unique: false }],
      }),
      row('workflows', { application: 'workflow_engine' }),
      row('catalog_store', { application: 'service_catalog' }),
    ]);
    mount();
    const jobs = await screen.findByRole('row', { name: 'jobs' });
    expect(within(jobs).getAllByRole('cell').map((c) => c.textContent)).toEqual([
      'jobs',
      'workflow_engine',
      '3',
      '1',
      '1',
      'Not indexed: 1 missing, 2 misnamed',
      'Run indexing Details',
    ]);
    expect(within(rowOf('catalog_store')).getByText('Indexed')).toBeTruthy();
    expect(within(rowOf('catalog_store')).getByText('service_catalog')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Details of jobs' }));
    const detail = screen.getByRole('region', { name: 'Indexes of jobs' });
    expect(within(within(detail).getByRole('list', { name: 'Missing' })).getByText('status_1_metrics.start_time_-1')).toBeTruthy();
    const misnamed = within(detail).getByRole('list', { name: 'Misnamed' });
    expect(misnamed.textContent).toContain('exists as "by_name"; indexing drops and re-creates it');
    // An index an earlier version built whole, now declared partial.
    expect(misnamed.textContent).toContain('parent.job_1 { parent.job: 1 } partial {"parent.job":{"$exists":true}} exists without its partial filter; indexing drops and re-creates it');
    expect(within(detail).getByRole('list', { name: 'External' }).textContent).toContain('my_own');
    expect(within(detail).getByRole('list', { name: 'External' }).textContent).toContain('never dropped');
  });

  it('runs indexing on a row, shows progress while the build runs, then the collection indexed', async () => {
    const server = scriptedConsole([row('jobs', { indexed: false, total: 3, current: 2, missing: [statusIndex] }), row('tasks')]);
    mount();
    fireEvent.click(await screen.findByRole('button', { name: 'Run indexing on jobs' }));
    await waitFor(() => expect(rowOf('jobs').textContent).toContain('Indexing 0 of 1 (status_1_metrics.start_time_-1)'));
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Run indexing on jobs' }).disabled).toBe(true);
    await waitFor(() => expect(within(rowOf('jobs')).getByText('Indexed')).toBeTruthy(), { timeout: 5000 });
    expect(within(rowOf('jobs')).getAllByRole('cell')[3]!.textContent).toBe('3');
    expect(server.builds).toEqual(['jobs']);
  });

  it('runs indexing for all collections', async () => {
    const server = scriptedConsole([row('jobs'), row('tasks', { indexed: false, total: 3, current: 2, missing: [statusIndex] }), row('workflows')]);
    mount();
    fireEvent.click(await screen.findByRole('button', { name: 'Run indexing for all' }));
    await waitFor(() => expect(server.builds.sort()).toEqual(['jobs', 'tasks', 'workflows']));
    await waitFor(() => expect(within(rowOf('tasks')).getByText('Indexed')).toBeTruthy(), { timeout: 5000 });
  });

  it("shows a build's failure naming the index and the cause", async () => {
    scriptedConsole([row('workflows', { indexed: false, current: 0, missing: [{ key: { name: 1 }, name: 'name_1', unique: true }] })], { failBuildOf: 'workflows' });
    mount();
    fireEvent.click(await screen.findByRole('button', { name: 'Run indexing on workflows' }));
    await waitFor(() => expect(within(rowOf('workflows')).getByText('Failed')).toBeTruthy(), { timeout: 5000 });
    expect(rowOf('workflows').textContent).toContain('creating unique index "name_1" on workflows failed: duplicate key');
    fireEvent.click(screen.getByRole('button', { name: 'Details of workflows' }));
    expect(screen.getByRole('alert').textContent).toContain('The last build failed on name_1');
  });

  it("shows the server's message when the status cannot be read", async () => {
    scriptedConsole([], { failStatus: 'cannot list the indexes of jobs on the MongoDB at db1:27017: connection refused' });
    mount();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Cannot read the index status: cannot list the indexes of jobs on the MongoDB at db1:27017: connection refused',
    );
  });
});
