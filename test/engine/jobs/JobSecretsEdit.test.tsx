// @vitest-environment happy-dom
// The job page's other places a secret variable shows: the edit-and-retry form's boxes and the job
// diagram's task detail read masked until the operator reveals them (the page's one reveal), and a
// retry never sends the mask string: a secret left as it reads keeps its real value.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';

const calls: { name: string; input: unknown }[] = [];
const SECRET = 'pw-Planted-1';
const job = {
  _id: 'j7', name: 'login', status: 'running', metrics: { start_time: 1 }, children: [], undefinedPaths: [],
  variables: { device: 'edge-1', password: SECRET, otp: '482913', note: '' },
  secretVariables: ['password', 'otp', 'note'],
  tasks: { login: { name: 'login', summary: 'Log in' } },
  transitions: {},
  taskRuns: [{ _id: 'j7:login:0', taskId: 'login', iteration: 0, name: 'login', app: 'Inventory', type: 'automatic', status: 'error', error: 'refused', attempt: 1, queuedAt: 1, metrics: {}, incoming: { device: 'edge-1', password: SECRET }, outgoing: { result: 'no', token: 'tk-Planted-2' } }],
};

vi.mock('../../../renderer/api/client', () => ({
  call: vi.fn(async (name: string, input: unknown) => {
    calls.push({ name, input });
    if (name === 'jobs.get') return { data: job };
    if (name === 'jobs.reveal') return { message: 'ok', data: { _id: 'j7', variables: job.secretVariables } };
    return { message: 'ok', data: {} };
  }),
}));

const { JobView } = await import('../../../renderer/jobs/JobView');
const { MASK, maskValue, unmaskValue } = await import('../../../renderer/jobs/SecretVariables');

afterEach(() => {
  cleanup();
  calls.length = 0;
});

async function openRetryForm() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <JobView id="j7" />
    </QueryClientProvider>,
  );
  fireEvent.click(await screen.findByRole('button', { name: 'Edit and retry…' }));
  const form = screen.getByRole('form', { name: 'Edit and retry task login' });
  const box = (name: RegExp): HTMLTextAreaElement => within(form).getByLabelText(name);
  return { form, incoming: () => box(/^Incoming values of login/), variables: () => box(/^Job variables/) };
}

const sent = () => calls.find((c) => c.name === 'jobs.retryTask')?.input;

describe('the edit-and-retry form with secret variables', () => {
  it('shows them masked, and a retry changing another variable sends only that one', async () => {
    const { form, incoming, variables } = await openRetryForm();
    expect(variables().value).not.toContain(SECRET);
    expect(variables().value).not.toContain('482913');
    expect(JSON.parse(variables().value)).toEqual({ device: 'edge-1', password: MASK, otp: MASK, note: '' });
    expect(JSON.parse(incoming().value)).toEqual({ device: 'edge-1', password: MASK });
    expect(document.body.textContent).not.toContain(SECRET);

    fireEvent.change(variables(), { target: { value: variables().value.replace('edge-1', 'edge-2') } });
    fireEvent.click(within(form).getByRole('button', { name: 'Retry with these changes' }));
    await waitFor(() => expect(sent()).toEqual({ params: { id: 'j7', taskId: 'login' }, body: { variables: { device: 'edge-2' } } }));
  });

  it('sends changed incoming values with the real secret where the mask was left', async () => {
    const { form, incoming } = await openRetryForm();
    fireEvent.change(incoming(), { target: { value: incoming().value.replace('edge-1', 'edge-9') } });
    fireEvent.click(within(form).getByRole('button', { name: 'Retry with these changes' }));
    await waitFor(() => expect(sent()).toEqual({ params: { id: 'j7', taskId: 'login' }, body: { incoming: { device: 'edge-9', password: SECRET } } }));
    expect(JSON.stringify(sent())).not.toContain(MASK);
  });

  it('sends a secret the operator typed over the mask', async () => {
    const { form, variables } = await openRetryForm();
    fireEvent.change(variables(), { target: { value: JSON.stringify({ device: 'edge-1', password: 'pw-New-3', otp: MASK, note: '' }) } });
    fireEvent.click(within(form).getByRole('button', { name: 'Retry with these changes' }));
    await waitFor(() => expect(sent()).toEqual({ params: { id: 'j7', taskId: 'login' }, body: { variables: { password: 'pw-New-3' } } }));
  });

  it('follows the page: Reveal shows the values in the boxes, the form still reads unchanged; Hide masks them again', async () => {
    const { form, incoming, variables } = await openRetryForm();
    fireEvent.click(screen.getByRole('button', { name: 'Reveal secrets' }));
    await waitFor(() => expect(JSON.parse(variables().value)).toEqual(job.variables));
    expect(JSON.parse(incoming().value)).toEqual(job.taskRuns[0]!.incoming);
    expect(within(form).getByRole('button', { name: 'Retry as it is' })).toBeTruthy();

    // An edit made while shown: the untouched secret is masked again on Hide, the typed one stays as typed.
    fireEvent.change(variables(), { target: { value: JSON.stringify({ ...job.variables, otp: '111111' }) } });
    fireEvent.click(screen.getByRole('button', { name: 'Hide secrets' }));
    expect(JSON.parse(variables().value)).toEqual({ device: 'edge-1', password: MASK, otp: '111111', note: '' });
    expect(JSON.parse(incoming().value)).toEqual({ device: 'edge-1', password: MASK });
    expect(document.body.textContent).not.toContain(SECRET);
    fireEvent.click(within(form).getByRole('button', { name: 'Retry with these changes' }));
    await waitFor(() => expect(sent()).toEqual({ params: { id: 'j7', taskId: 'login' }, body: { variables: { otp: '111111' } } }));
  });
});

describe("the job diagram's task detail with secret variables", () => {
  it("masks a run's values under their names until Reveal", async () => {
    await openRetryForm();
    const task = document.querySelector<HTMLButtonElement>('.job-diagram button[data-task-id="login"]');
    expect(task, 'the diagram draws the task login as a button').toBeTruthy();
    fireEvent.click(task!);
    const detail = screen.getByRole('region', { name: 'Task login detail' });
    expect(within(detail).getByLabelText('incoming of login iteration 1').textContent).toContain(MASK);
    expect(detail.textContent).toContain('edge-1');
    expect(detail.textContent).not.toContain(SECRET);
    // `token` is not a secret variable of this job: the page masks by the job's names, as the task table does.
    expect(within(detail).getByLabelText('outgoing of login iteration 1').textContent).toContain('tk-Planted-2');

    fireEvent.click(screen.getByRole('button', { name: 'Reveal secrets' }));
    await waitFor(() => expect(within(detail).getByLabelText('incoming of login iteration 1').textContent).toContain(SECRET));
  });
});

describe('masking and unmasking a value', () => {
  it('gives back every value the operator left as masked', () => {
    const value = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.constant(MASK)));
    fc.assert(
      fc.property(value, fc.array(fc.string({ minLength: 1, maxLength: 8 })), (original, names) => {
        const shown = maskValue(original, names);
        expect(unmaskValue(shown as Record<string, unknown>, original, names)).toEqual(original);
      }),
    );
  });
});
