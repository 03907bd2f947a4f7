// @vitest-environment happy-dom
// The job page masks the variables the job names in `secretVariables` (in the job's variables and
// under the same names in a task's values) until the operator reveals them; a reveal asks the
// console first (jobs.reveal, which logs it) and shows nothing when it is refused.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';

const calls: { name: string; input: unknown }[] = [];
let refuse = false;
const job = {
  _id: 'j9', name: 'login', status: 'complete', metrics: { start_time: 1 }, children: [], undefinedPaths: [],
  variables: { device: 'edge-1', password: 'pw-Planted-1', otp: '482913' },
  secretVariables: ['password', 'otp'],
  tasks: { login: { name: 'login' } },
  transitions: {},
  taskRuns: [{ _id: 'j9:login:0', taskId: 'login', iteration: 0, name: 'login', app: 'Inventory', type: 'automatic', status: 'complete', finishState: 'success', attempt: 1, queuedAt: 1, metrics: {}, incoming: { device: 'edge-1', password: 'pw-Planted-1' }, outgoing: { result: 'ok' } }],
};

vi.mock('../../../renderer/api/client', () => ({
  call: vi.fn(async (name: string, input: unknown) => {
    calls.push({ name, input });
    if (name === 'jobs.get') return { data: job };
    if (name === 'jobs.reveal' && refuse) throw new Error('the console log cannot be written');
    return { message: 'ok', data: { _id: 'j9', variables: ['password', 'otp'] } };
  }),
}));

const { JobView } = await import('../../../renderer/jobs/JobView');

afterEach(() => {
  cleanup();
  calls.length = 0;
  refuse = false;
});

function mount() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <JobView id="j9" />
    </QueryClientProvider>,
  );
}

describe("a job's secret variables on its page", () => {
  it('are masked, in the variables and in a task run, until Reveal is pressed, which asks the console first', async () => {
    mount();
    const variables = await screen.findByLabelText('Job variables');
    expect(variables.textContent).toContain('edge-1');
    expect(variables.textContent).not.toContain('pw-Planted-1');
    expect(variables.textContent).not.toContain('482913');
    expect(screen.getByLabelText('Secret variables').textContent).toContain('password, otp');
    fireEvent.click(within(screen.getByRole('table', { name: 'Tasks' })).getByRole('button', { name: /login/ }));
    expect(screen.getByLabelText('incoming of login').textContent).not.toContain('pw-Planted-1');
    expect(document.body.textContent).not.toContain('pw-Planted-1');

    fireEvent.click(screen.getByRole('button', { name: 'Reveal secrets' }));
    await waitFor(() => expect(screen.getByLabelText('Job variables').textContent).toContain('pw-Planted-1'));
    expect(calls.find((c) => c.name === 'jobs.reveal')?.input).toEqual({ params: { id: 'j9' }, body: { variables: ['password', 'otp'] } });
    expect(screen.getByLabelText('incoming of login').textContent).toContain('pw-Planted-1');

    fireEvent.click(screen.getByRole('button', { name: 'Hide secrets' }));
    expect(screen.getByLabelText('Job variables').textContent).not.toContain('pw-Planted-1');
  });

  it('stay masked when the console refuses the reveal, saying why', async () => {
    refuse = true;
    mount();
    fireEvent.click(await screen.findByRole('button', { name: 'Reveal secrets' }));
    await screen.findByText(/the console log cannot be written/);
    expect(document.body.textContent).not.toContain('pw-Planted-1');
  });
});
