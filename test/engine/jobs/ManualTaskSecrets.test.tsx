// @vitest-environment happy-dom
// Manual-task panels with secret variables: on the job page and in the work queue, what a ViewData,
// ErrorHandling or JSON form shows from its incoming values reads masked where it is or holds a
// secret variable's value (or, in the work queue, an incoming value the classifier names) until the
// operator reveals them (a logged reveal), and finishing never sends the mask string for a value
// the operator left as it was.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const SECRET = 'pw-Planted-1';
const calls: { name: string; input: unknown }[] = [];
const run = (taskId: string, name: string, app: string, incoming: Record<string, unknown>) => ({
  _id: `j7:${taskId}:0`, taskId, iteration: 0, name, app, type: 'manual', status: 'waiting', attempt: 1, queuedAt: 1, metrics: {}, incoming,
});
const job = {
  _id: 'j7', name: 'login', status: 'running', metrics: { start_time: 1 }, children: [], undefinedPaths: [],
  variables: { device: 'edge-1', password: SECRET, note: 'hello' },
  secretVariables: ['password'],
  tasks: { show: { name: 'ViewData' }, err: { name: 'ErrorHandling' }, form: { name: 'RenderJsonSchema', app: 'JsonForms' } },
  transitions: {},
  taskRuns: [
    run('show', 'ViewData', 'WorkFlowEngine', { header: 'Check edge-1', message: `Log in with ${SECRET} now`, body: SECRET, btn_success: 'OK', btn_failure: 'No' }),
    run('err', 'ErrorHandling', 'WorkFlowEngine', { severity: 'warning', status: `refused for ssh://admin:${SECRET}@edge-1` }),
    run('form', 'RenderJsonSchema', 'JsonForms', {
      jsonSchema: { title: 'Device login', type: 'object', properties: { user: { type: 'string', title: 'User' }, secret: { type: 'string', title: 'Secret' }, url: { type: 'string', title: 'URL' } } },
      formData: { user: 'admin', secret: SECRET, url: `ssh://admin:${SECRET}@edge-1` },
    }),
  ],
};
const workItem = {
  _id: 'j7:show:0', jobId: 'j7', taskId: 'show', iteration: 0, name: 'ViewData', app: 'WorkFlowEngine', queuedAt: 1, outgoing: [],
  incoming: { header: 'Check', body: SECRET, token: 'tk-Planted-2' }, secretIncoming: ['token'],
  job: { name: 'login', status: 'running' },
};
let jobAnswer: () => Promise<unknown> = async () => ({ data: job });

vi.mock('../../../renderer/api/client', () => ({
  call: vi.fn(async (name: string, input: unknown) => {
    calls.push({ name, input });
    if (name === 'jobs.get') return jobAnswer();
    if (name === 'jobs.reveal') return { message: 'ok', data: { _id: 'j7', variables: ['password'] } };
    if (name === 'tasks.worklist') return { results: [workItem], total: 1, skip: 0, limit: 500, operator: 'me', counts: { all: 1, mine: 0, unassigned: 1 } };
    if (name === 'tasks.worklistHistory') return { results: [] };
    return { message: 'finished', data: {} };
  }),
}));

const { JobView } = await import('../../../renderer/jobs/JobView');
const { WorklistPage } = await import('../../../renderer/worklist/WorklistPage');
const { MASK, maskDeep, restoreDeep, secretValues } = await import('../../../renderer/jobs/SecretVariables');

beforeEach(() => {
  jobAnswer = async () => ({ data: job });
});
afterEach(() => {
  cleanup();
  calls.length = 0;
});

function show(page: ReactElement) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(<QueryClientProvider client={client}>{page}</QueryClientProvider>);
}
const sent = (name: string) => calls.find((c) => c.name === name)?.input;

describe('manual-task panels on the job page', () => {
  it('mask a ViewData body and message that are or hold a secret, and show them on Reveal', async () => {
    show(<JobView id="j7" />);
    const panel = await screen.findByRole('group', { name: 'View data of show' });
    expect(within(panel).getByLabelText('body of show').textContent).toBe(MASK);
    expect(panel.textContent).toContain(`Log in with ${MASK} now`);
    expect(panel.textContent).toContain('Check edge-1');
    expect(screen.getByRole('group', { name: 'Error handling of err' }).textContent).toContain(`ssh://admin:${MASK}@edge-1`);
    expect(document.body.textContent).not.toContain(SECRET);

    fireEvent.click(screen.getByRole('button', { name: 'Reveal secrets' }));
    await waitFor(() => expect(within(panel).getByLabelText('body of show').textContent).toBe(SECRET));
    expect(sent('jobs.reveal')).toEqual({ params: { id: 'j7' }, body: { variables: ['password'] } });
    expect(panel.textContent).toContain(`Log in with ${SECRET} now`);
  });

  it('prefill a JSON form masked, and submit the real values the operator left as they were', async () => {
    show(<JobView id="j7" />);
    const form = await screen.findByRole('form', { name: 'Form Device login of form' });
    const field = (label: string): HTMLInputElement => within(form).getByLabelText(label);
    expect(field('Secret').value).toBe(MASK);
    expect(field('URL').value).toBe(`ssh://admin:${MASK}@edge-1`);
    expect(document.body.textContent).not.toContain(SECRET);

    fireEvent.change(field('User'), { target: { value: 'root' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Submit the form' }));
    await waitFor(() =>
      expect(sent('jobs.finishTask')).toEqual({
        params: { id: 'j7', taskId: 'form' },
        body: { values: { export: { user: 'root', secret: SECRET, url: `ssh://admin:${SECRET}@edge-1` } }, state: 'success' },
      }),
    );
    expect(JSON.stringify(sent('jobs.finishTask'))).not.toContain(MASK);
  });

  it('send a value the operator typed over the mask as typed; an untouched form follows Reveal', async () => {
    show(<JobView id="j7" />);
    const form = await screen.findByRole('form', { name: 'Form Device login of form' });
    const field = (label: string): HTMLInputElement => within(form).getByLabelText(label);
    fireEvent.click(screen.getByRole('button', { name: 'Reveal secrets' }));
    await waitFor(() => expect(field('Secret').value).toBe(SECRET));
    fireEvent.click(screen.getByRole('button', { name: 'Hide secrets' }));
    expect(field('Secret').value).toBe(MASK);

    fireEvent.change(field('Secret'), { target: { value: 'pw-New-3' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Submit the form' }));
    await waitFor(() => expect(sent('jobs.finishTask')).toMatchObject({ body: { values: { export: { user: 'admin', secret: 'pw-New-3', url: `ssh://admin:${SECRET}@edge-1` } } } }));
  });
});

describe('manual-task panels in the work queue', () => {
  it("mask the job's secret values and the incoming values the classifier names; Reveal is logged with the job's names", async () => {
    show(<WorklistPage />);
    const panel = await screen.findByRole('group', { name: 'View data of show' });
    expect(within(panel).getByLabelText('body of show').textContent).toBe(MASK);
    const incoming = screen.getByLabelText('incoming of show').textContent ?? '';
    expect(incoming).not.toContain('tk-Planted-2');
    expect(document.body.textContent).not.toContain(SECRET);
    expect(screen.getByLabelText('Secret variables').textContent).toContain('password, token');

    fireEvent.click(screen.getByRole('button', { name: 'Reveal secrets' }));
    await waitFor(() => expect(within(panel).getByLabelText('body of show').textContent).toBe(SECRET));
    expect(screen.getByLabelText('incoming of show').textContent).toContain('tk-Planted-2');
    expect(sent('jobs.reveal')).toEqual({ params: { id: 'j7' }, body: { variables: ['password'] } });
  });

  it('show nothing of the task before its job is read, and mask by the classifier when the job cannot be read', async () => {
    let fail: (error: Error) => void = () => undefined;
    jobAnswer = () => new Promise((_, reject) => (fail = reject));
    show(<WorklistPage />);
    await screen.findByText('Reading the job…');
    expect(document.body.textContent).not.toContain(SECRET);
    expect(document.body.textContent).not.toContain('tk-Planted-2');

    fail(new Error('no such job'));
    await screen.findByText(/Cannot read the job's secret variables: no such job/);
    expect(screen.getByLabelText('incoming of show').textContent).not.toContain('tk-Planted-2');
    expect(screen.queryByRole('button', { name: 'Reveal secrets' })).toBeNull();
  });
});

describe('masking and restoring a prefilled value', () => {
  it('gives back every part the operator left as it was shown, and keeps the one they typed', () => {
    const key = fc.string({ minLength: 1, maxLength: 6 });
    const leaf = fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.constant(null), fc.constant(MASK));
    const value = fc.dictionary(key, fc.oneof(leaf, fc.array(leaf, { maxLength: 3 }), fc.dictionary(key, leaf)), { minKeys: 1 });
    const secretsOf = (original: Record<string, unknown>) =>
      fc.record({ names: fc.subarray(Object.keys(original)).chain((n) => fc.constant([...n, 'other'])), values: fc.array(fc.string({ minLength: 1, maxLength: 8 }), { maxLength: 3 }) });
    fc.assert(
      fc.property(
        value.chain((original) => fc.tuple(fc.constant(original), secretsOf(original), fc.constantFrom(...Object.keys(original)), fc.string({ maxLength: 8 }))),
        ([original, secrets, edited, typed]) => {
          const shown = maskDeep(original, secrets) as Record<string, unknown>;
          expect(restoreDeep(shown, original, secrets)).toEqual(original);
          // The operator typed over one field: it is sent as typed, every other one with its real value.
          fc.pre(typed !== shown[edited] && typed !== MASK);
          expect(restoreDeep({ ...shown, [edited]: typed }, original, secrets)).toEqual({ ...original, [edited]: typed });
        },
      ),
    );
  });

  it('finds the secret values inside the named variables only', () => {
    expect(secretValues({ a: 'x1', creds: { user: 'u', password: 'p9', port: 22 } }, ['creds']).sort()).toEqual(['22', 'p9', 'u']);
  });
});
