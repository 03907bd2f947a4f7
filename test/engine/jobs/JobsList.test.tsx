// @vitest-environment happy-dom
// The Jobs list renders only the rows in view and asks the server for the pages it
// shows, so 100,000 jobs cost a screenful of DOM rows and one page request.
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';

const TOTAL = 100_000;
const requests: { skip: number; limit: number; status?: string }[] = [];

vi.mock('../../../renderer/api/client', () => ({
  call: vi.fn(async (name: string, input: { query: { skip: number; limit: number; status?: string } }) => {
    if (name !== 'jobs.list') throw new Error(`unexpected ${name}`);
    requests.push(input.query);
    const { skip, limit } = input.query;
    const results = Array.from({ length: Math.min(limit, TOTAL - skip) }, (_v, i) => ({
      _id: `job-${skip + i}`,
      name: 'provision',
      description: `job number ${skip + i}`,
      type: 'automation',
      ancestors: [`job-${skip + i}`],
      status: 'complete',
      metrics: { start_time: 1_700_000_000_000 - (skip + i) * 1000, end_time: 1_700_000_000_500 - (skip + i) * 1000 },
    }));
    return { message: 'jobs', data: results, metadata: { total: TOTAL, skip, limit } };
  }),
}));

// happy-dom lays nothing out: give every element a 1000×600 box, as a window would.
Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 600 });
Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 1000 });

const { JobsList } = await import('../../../renderer/jobs/JobsList');

afterEach(() => {
  cleanup();
  requests.length = 0;
});

describe('Jobs list', () => {
  it('shows the total and a screenful of rows out of 100,000, from the first page only', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <JobsList />
      </QueryClientProvider>,
    );
    await screen.findByText('100,000 jobs');
    const first = await screen.findByRole('row', { name: 'provision complete job-0' });
    expect(within(first).getByRole('link', { name: 'provision' }).getAttribute('href')).toBe('#/jobs/job-0');
    const rows = screen.getAllByRole('row').filter((row) => row.getAttribute('aria-selected') !== null);
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(100);
    expect(screen.getByRole('table', { name: 'Jobs list' }).getAttribute('aria-rowcount')).toBe(String(TOTAL));
    await waitFor(() => expect(requests.length).toBeGreaterThan(0));
    expect(requests.every((q) => q.skip === 0 && q.limit === 100)).toBe(true);
  });
});
