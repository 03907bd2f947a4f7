// A job another console left half-started (killed after writing the job document,
// before its first task record): this console's task worker finishes the start, the
// job runs to complete, and its page says in its History what recovery did.
import { test, expect } from './fixtures';

const wf = {
  name: 'e2e-half-started',
  tasks: {
    workflow_start: { name: 'workflow_start' },
    workflow_end: { name: 'workflow_end' },
    shout: { name: 'toUpperCase', app: 'WorkFlowEngine', type: 'automatic', variables: { incoming: { str: '$var.job.text' }, outgoing: { uppercaseString: '$var.job.loud' } } },
  },
  transitions: {
    workflow_start: { shout: { type: 'standard', state: 'success' } },
    shout: { workflow_end: { type: 'standard', state: 'success' } },
  },
};

test('a job left half-started by a console that stopped is finished, and its page shows it in the History', async ({ consolePage: page, host }) => {
  test.setTimeout(90_000);
  // The job document alone, as a console killed in the middle of the start leaves it, a minute ago.
  const at = Date.now() - 60_000;
  await host.state.runtime.store.collection('jobs').insertOne({
    _id: 'e2e-half-started-1',
    name: wf.name,
    description: 'left half-started',
    status: 'running',
    variables: { text: 'recovered' },
    metrics: { start_time: at, user: 'admin@pronghorn' },
    children: [],
    tasks: wf.tasks,
    transitions: wf.transitions,
    last_updated: at,
  });

  await page.getByRole('link', { name: 'Jobs' }).click();
  await page.evaluate(() => (window.location.hash = '#/jobs/e2e-half-started-1'));
  await expect(page.getByRole('heading', { name: /e2e-half-started/ })).toBeVisible();
  // The worker's sweep (every half lease) finishes the start; the page follows the running job.
  await expect(page.getByLabel('Job status')).toHaveText('complete', { timeout: 60_000 });
  const history = page.getByRole('table', { name: 'Job history' });
  await expect(history).toContainText('recovered: a server stopped after writing the job (and its workflow_start) and before queuing the first tasks');
  await expect(page.getByLabel('Job variables')).toContainText('"loud": "RECOVERED"');
  await expect(page.getByRole('row', { name: 'Task shout' }).getByLabel('status of shout')).toHaveText('complete');
});
