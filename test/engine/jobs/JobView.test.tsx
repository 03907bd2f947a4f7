// @vitest-environment happy-dom
// The job page: a task that ran several times (a revert loop) shows a row per
// iteration; ViewData waits with its header, body and its own two buttons, which
// finish it in success or failure; the errorHandler's run offers no retry.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';

const calls: { name: string; input: unknown }[] = [];
const run = (taskId: string, iteration: number, extra: Record<string, unknown> = {}) => ({
  _id: `j1:${taskId}:${iteration}`, taskId, iteration, name: 'push', app: 'WorkFlowEngine', type: 'automatic', status: 'complete', finishState: 'success', attempt: 1, queuedAt: 1, metrics: {}, ...extra,
});
const job = {
  _id: 'j1', name: 'retry-loop', status: 'running', metrics: { start_time: 1 }, variables: {}, children: [], undefinedPaths: [],
  largeData: [{ id: '0123456789abcdef01234567', variable: 'variables.inventory', size: 2_000_000 }],
  tasks: { call: { name: 'push' }, ask: { name: 'ViewData' } },
  transitions: { call: { ask: { type: 'standard', state: 'success' } }, ask: { call: { type: 'revert', state: 'success' } } },
  taskRuns: [
    run('call', 0), run('ask', 0, { name: 'ViewData', type: 'manual', finishState: 'success' }),
    run('call', 1, { autoRetries: 2, retryErrors: ['timeout', 'refused'], attempt: 3 }),
    run('ask', 1, { name: 'ViewData', type: 'manual', status: 'waiting', finishState: undefined, incoming: { header: 'Device unreachable', message: 'Retry?', body: { code: 504 }, btn_success: 'Retry', btn_failure: 'Give up' } }),
    run('errorHandler', 0, { name: 'stub', status: 'error', finishState: 'error', error: 'handler failed' }),
  ],
};

vi.mock('../../../renderer/api/client', () => ({
  call: vi.fn(async (name: string, input: unknown) => {
    calls.push({ name, input });
    if (name === 'jobs.get') return { data: job };
    if (name === 'jobs.largeData') return { devices: ['r1'] };
    return { message: 'ok', data: { _id: 'j1', status: 'running' } };
  }),
}));

const { JobView } = await import('../../../renderer/jobs/JobView');

afterEach(() => {
  cleanup();
  calls.length = 0;
});

function mount() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <JobView id="j1" />
    </QueryClientProvider>,
  );
}

describe('job page', () => {
  it('lists the values kept in job_data, each downloaded from GET /operations-manager/large-data/:id', async () => {
    const created = vi.fn(() => 'blob:large');
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() });
    mount();
    const list = await screen.findByRole('list', { name: 'Large values' });
    expect(list.textContent).toContain('variables.inventory: 2000000 bytes, kept in job_data');
    fireEvent.click(within(list).getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(calls).toContainEqual({ name: 'jobs.largeData', input: { params: { id: '0123456789abcdef01234567' } } }));
    await waitFor(() => expect(created).toHaveBeenCalled());
  });

  it('shows each iteration of a task run again, and its automatic retries', async () => {
    mount();
    const first = await screen.findByRole('row', { name: 'Task call iteration 1' });
    expect(within(first).getByLabelText('iteration of call').textContent).toBe(' iteration 1 of 2');
    const second = screen.getByRole('row', { name: 'Task call iteration 2' });
    expect(second.textContent).toContain('retried 2× by its retrySettings');
    fireEvent.click(within(second).getByRole('button', { name: /call/ }));
    expect(screen.getByLabelText('retried errors of call').textContent).toContain('attempt 2: refused');
  });

  it("ViewData's buttons finish it in success or failure; the errorHandler run has no Retry", async () => {
    mount();
    const panel = await screen.findByRole('group', { name: 'View data of ask' });
    expect(within(panel).getByRole('heading').textContent).toBe('Device unreachable');
    expect(within(panel).getByLabelText('body of ask').textContent).toContain('504');
    fireEvent.click(within(panel).getByRole('button', { name: 'Give up' }));
    await waitFor(() => expect(calls.find((c) => c.name === 'jobs.finishTask')).toBeDefined());
    expect(calls.find((c) => c.name === 'jobs.finishTask')!.input).toEqual({ params: { id: 'j1', taskId: 'ask' }, body: { values: {}, state: 'failure' } });
    // Only the waiting (latest) iteration of ask has the panel.
    expect(screen.getAllByRole('group', { name: 'View data of ask' })).toHaveLength(1);
    expect(within(screen.getByRole('row', { name: 'Task errorHandler' })).queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('a task run waiting on a timer says until when, and so does the job', async () => {
    const due = new Date();
    due.setHours(23, 59, 58, 0);
    job.taskRuns.push(run('wait', 0, { name: 'delay', status: 'queued', finishState: undefined, waitingUntil: due.getTime() }));
    try {
      mount();
      const row = await screen.findByRole('row', { name: 'Task wait' });
      expect(within(row).getByLabelText('timer of wait').textContent).toBe(' waiting until 23:59:58');
      expect(screen.getByLabelText('job timer').textContent).toContain('waiting until 23:59:58 (wait;');
    } finally {
      job.taskRuns.pop();
    }
  });

  it('lists the job history (what recovery did) only when the job has one', async () => {
    mount();
    await screen.findByRole('row', { name: 'Task call iteration 1' });
    expect(screen.queryByRole('table', { name: 'Job history' })).toBeNull();
    cleanup();
    const withHistory = job as typeof job & { history?: unknown };
    withHistory.history = [{ timestamp: Date.UTC(2022, 0, 1), event: 'start-recovered', message: 'recovered: its first tasks were queued (server site-b)' }];
    try {
      mount();
      const history = await screen.findByRole('table', { name: 'Job history' });
      expect(history.textContent).toContain('recovered: its first tasks were queued (server site-b)');
      // When in local time, who, and what in words.
      const cells = within(history).getAllByRole('cell').map((cell) => cell.textContent);
      expect(cells).toEqual([new Date(Date.UTC(2022, 0, 1)).toLocaleString(), 'the console', 'Start recoveredrecovered: its first tasks were queued (server site-b)']);
    } finally {
      delete withHistory.history;
    }
  });

  it('offers no pause or cancel on a job the service wrote, and says to act on the service', async () => {
    mount();
    await screen.findByRole('button', { name: 'Pause' });
    expect(screen.getByRole('button', { name: 'Cancel job' })).toBeTruthy();
    cleanup();
    const written = job as typeof job & { writtenBy?: string };
    written.writtenBy = 'service';
    try {
      mount();
      expect((await screen.findByText(/Written by the automation service/)).textContent).toContain('cancel it on the service');
      expect(screen.queryByRole('button', { name: 'Pause' })).toBeNull();
      expect(screen.queryByRole('button', { name: 'Cancel job' })).toBeNull();
    } finally {
      delete written.writtenBy;
    }
  });
});
