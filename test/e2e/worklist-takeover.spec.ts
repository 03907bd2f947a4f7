// Claims hold in the work queue: a task another operator claimed offers no way to finish
// it, only "Take over"; taking it over makes it this operator's (recorded in the job's
// history), and then it can be finished.
import { test, expect } from './fixtures';

const end = { type: 'standard', state: 'success' };
const flow = {
  name: 'e2e-takeover',
  tasks: {
    workflow_start: { name: 'workflow_start' },
    workflow_end: { name: 'workflow_end' },
    ask: {
      name: 'ViewData',
      app: 'WorkFlowEngine',
      type: 'manual',
      location: 'Application',
      summary: 'Approve the change',
      variables: { incoming: { header: 'Approve change CR-9', message: 'Two routers.', body: 'Routers: <!routers!> (window <!window!>)', variables: { routers: 'r1, r2' }, btn_success: 'Approve', btn_failure: 'Reject' }, outgoing: {} },
    },
  },
  transitions: { workflow_start: { ask: end }, ask: { workflow_end: end } },
};

test('a task someone else claimed is taken over, recorded in the job history, then finished', async ({ consolePage: page, host }) => {
  expect((await host.api('/workflows', { method: 'POST', json: flow })).status).toBeLessThan(300);
  const started = await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: flow.name } });
  const jobId = ((await started.json()) as { data: { _id: string } }).data._id;
  // Another operator (another console on the same store) holds the task.
  await expect.poll(async () => (await host.state.runtime.store.collection('tasks').findOne({ jobId, taskId: 'ask', status: 'waiting' }))?._id).toBe(`${jobId}:ask:0`);
  await host.state.runtime.store.collection('task_claims').insertOne({ _id: `${jobId}:ask:0`, assignee: 'someone-else', claimedAt: Date.now() });

  await page.getByRole('navigation', { name: 'Console areas' }).getByRole('link', { name: 'Work queue' }).click();
  const detail = page.getByRole('region', { name: `Task ask of job ${jobId}` });
  await expect(detail).toContainText('someone-else has claimed this task: only they can finish it');
  await expect(detail.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expect(detail.getByRole('button', { name: 'Claim' })).toHaveCount(0);

  await detail.getByRole('button', { name: 'Take over' }).click();
  await expect(detail.getByRole('button', { name: 'Release' })).toBeVisible();
  // The body as viewData shows it: each <!name!> of its variables replaced, one it lacks left as written.
  await expect(detail.getByLabel('body of ask')).toHaveText('Routers: r1, r2 (window <!window!>)');
  const operator = ((await page.getByText(/^you are /).textContent()) ?? '').replace('you are ', '');
  await expect(page.getByRole('table', { name: 'Tasks waiting for an operator' })).toContainText(`claimed by ${operator}`);

  await detail.getByRole('group', { name: 'View data of ask' }).getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('No task is waiting for an operator.')).toBeVisible();

  await page.goto(`${host.url}/#/jobs/${jobId}`);
  const history = page.getByRole('table', { name: 'Job history' });
  await expect(history).toContainText(`${operator} took over task ask from someone-else`);
  await expect(history).toContainText(`task ask finished in success by ${operator}`);
});
