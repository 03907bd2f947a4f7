// The README's pictures, taken from the running console so they stay current: the Overview and a
// job page, on the project's own pre-built (test/fixtures/iap) and its EC2 test adapter in stub
// mode. A test run writes them under test-results/screenshots/, never into the tree;
// `npm run docs:screenshots` (CONSOLE_SCREENSHOTS_DIR=docs/screenshots) refreshes the README's.
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { writeJsonAtomic } from '../../core/files/atomic';
import { propertiesFile } from '../../core/profiles/directory';
import { startTestHost, UI_DIR, type TestHost } from '../support/host';
import { fixtures } from '../support/iap';
import { test, expect } from './fixtures';

const SCREENSHOTS = path.resolve(import.meta.dirname, '../..', process.env.CONSOLE_SCREENSHOTS_DIR || 'test-results/screenshots');
const AWS_PACKAGE = path.resolve(import.meta.dirname, '../adapters/fixtures/adapter-aws_ec2');

/** A console whose profile finds the EC2 test package in its sdk_dir, as the service installs packages. */
async function consoleWithPackage(): Promise<{ host: TestHost; dataDir: string }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-e2e-screens-'));
  const scope = path.join(dataDir, 'sdk', 'node_modules', '@itentialopensource');
  await mkdir(scope, { recursive: true });
  await symlink(AWS_PACKAGE, path.join(scope, 'adapter-aws_ec2'));
  await writeJsonAtomic(propertiesFile(dataDir, 'primary'), {
    id: 'primary',
    processTasksOnStart: true,
    pathProps: { description: 'File Path Variables', sdk_dir: path.join(dataDir, 'sdk') },
  });
  return { host: await startTestHost({ dataDir, uiDir: UI_DIR }), dataDir };
}

const approval = {
  name: 'Approve maintenance window',
  tasks: {
    workflow_start: { name: 'workflow_start' },
    workflow_end: { name: 'workflow_end' },
    ask: { name: 'approve', summary: 'Approve the window', app: 'WorkFlowEngine', type: 'manual', variables: { incoming: { change: '$var.job.change' }, outgoing: { decision: '$var.job.decision' } } },
  },
  transitions: { workflow_start: { ask: { type: 'standard', state: 'success' } }, ask: { workflow_end: { type: 'standard', state: 'success' } }, workflow_end: {} },
};

test('the Overview and a job page, as the README shows them', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const { host, dataDir } = await consoleWithPackage();
  try {
    // The EC2 adapter instance the pre-built's workflows call, in stub mode (answers from its mock data).
    const sample = await (await host.api('/adapter-packages/sample?package=%40itentialopensource%2Fadapter-aws_ec2&name=aws-lab')).json();
    expect((await host.api('/adapters', { method: 'POST', json: { properties: { ...sample.data, properties: { ...sample.data.properties, stub: true } } } })).status).toBe(200);
    const imported = await (await host.api('/projects/imports/path', { method: 'POST', json: { path: fixtures.prebuilt('Instance-Check-Example') } })).json();
    await expect.poll(async () => (await (await host.api(`/projects/imports/${imported.id}`)).json()).state, { timeout: 30_000 }).toBe('done');
    expect((await host.api('/workflows', { method: 'POST', json: approval })).status).toBe(201);

    const launched = await host.api('/operations-manager/jobs/start', {
      method: 'POST',
      json: { workflow: 'Launch Instance - Example', options: { description: 'web tier for the lab', variables: { imageId: 'ami-0abcdef1234567890', instanceType: 't3.micro', vpcName: 'lab', adapterId: 'aws-lab', networkInterface: [] } } },
    });
    expect(launched.status, await launched.clone().text()).toBe(200);
    const job = ((await launched.json()) as { data: { _id: string } }).data;
    await expect.poll(async () => (await (await host.api(`/operations-manager/jobs/${job._id}`)).json()).data.status, { timeout: 30_000 }).toBe('complete');
    // Something for an operator: a manual task waiting.
    expect((await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: approval.name, options: { variables: { change: 'CR-1042' } } } })).status).toBe(200);

    await page.goto(`${host.url}/#token=${host.token}`);
    await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
    await expect(page.getByText('1 task waiting for an operator').first()).toBeVisible();
    // The pre-built's other workflows call adapters this console lacks (Servicenow, Inventory).
    await expect(page.getByText('3 workflows of 5 cannot run').first()).toBeVisible();
    await expect(page.getByText('Every adapter ONLINE')).toBeVisible();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'overview.png') });

    await page.goto(`${host.url}/#/jobs/${job._id}`);
    await expect(page.getByRole('heading', { name: /Launch Instance - Example/ })).toBeVisible();
    await expect(page.getByLabel('Job status').first()).toHaveText('complete');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'job.png') });
  } finally {
    await host.dispose();
    await rm(dataDir, { recursive: true, force: true });
  }
});
