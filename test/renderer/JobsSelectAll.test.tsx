// @vitest-environment happy-dom
// The Jobs list's "Took" asks the server for the jobs sorted by duration, and "Select all N
// matching" sends the bulk action the list's filter, not the ids of the rows loaded.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';

const TOTAL = 540;
const calls: { name: string; input: { query?: Record<string, unknown>; body?: Record<string, unknown> } }[] = [];

vi.mock('../../renderer/api/client', () => ({
  call: vi.fn(async (name: string, input: { query: { skip: number; limit: number }; body?: Record<string, unknown> }) => {
    calls.push({ name, input });
    if (name === 'jobs.bulkCancel') return { message: `${TOTAL} of ${TOTAL} jobs canceled`, data: { results: [], done: TOTAL, failed: 0 } };
    if (name !== 'jobs.list') throw new Error(`unexpected ${name}`);
    const { skip, limit } = input.query;
    const data = Array.from({ length: Math.min(limit, TOTAL - skip) }, (_v, i) => ({
      _id: `job-${skip + i}`,
      name: 'provision',
      type: 'automation',
      ancestors: [`job-${skip + i}`],
      status: 'error',
      metrics: { start_time: 1_700_000_000_000 - (skip + i) * 1000, end_time: 1_700_000_000_500 - (skip + i) * 1000 },
    }));
    return { message: 'jobs', data, metadata: { total: TOTAL, skip, limit } };
  }),
}));

Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 600 });
Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 1000 });

const { JobsList } = await import('../../renderer/jobs/JobsList');

afterEach(() => {
  cleanup();
  calls.length = 0;
  window.location.hash = '';
});

function renderList() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <JobsList />
    </QueryClientProvider>,
  );
}

describe('Jobs list', () => {
  it('"Took" sorts by duration, longest first, on the server', async () => {
    window.location.hash = '#/jobs?status=error';
    renderList();
    await screen.findByText('540 jobs');
    fireEvent.click(screen.getByRole('button', { name: /^Took/ }));
    await waitFor(() => expect(calls.some((c) => c.input.query?.sort === 'duration' && c.input.query.order === 'desc')).toBe(true));
    expect((await screen.findByRole('columnheader', { name: /Took/ })).getAttribute('aria-sort')).toBe('descending');
  });

  it('"Select all 540 matching" cancels by the filter, after asking with the count', async () => {
    window.location.hash = '#/jobs?status=error&workflow=provision';
    renderList();
    await screen.findByText('540 jobs');
    await screen.findByRole('row', { name: 'provision error job-0' });
    fireEvent.click(screen.getByLabelText('Select the jobs shown'));
    fireEvent.click(await screen.findByRole('button', { name: 'Select all 540 jobs matching' }));
    expect(screen.getByRole('toolbar', { name: 'Selected jobs' }).textContent).toContain('All 540 jobs matching selected');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel…' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel 540 jobs?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel 540 jobs' }));
    await waitFor(() => expect(calls.find((c) => c.name === 'jobs.bulkCancel')).toBeDefined());
    const bulk = calls.find((c) => c.name === 'jobs.bulkCancel')!;
    expect(bulk.input.body).toEqual({ filter: { status: 'error', workflow: 'provision', from: undefined, to: undefined, q: undefined } });
    expect(await screen.findByRole('status', { name: 'Bulk action result' })).toBeTruthy();
  });
});
