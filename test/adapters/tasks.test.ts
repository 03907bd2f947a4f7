// Workflow tasks that call adapters: checked against pronghorn.json (unknown method, missing
// required input: what the workflow needs before a job starts), and called by instance name or, as the service's exports do, by adapter type
// with the instance in `adapter_id`. The Awsec2 tasks of the exported workflows (the project's
// fixture pre-built; the AWS-EC2-REST corpus workflows when the corpus is there) all check against
// the test package test/adapters/fixtures/adapter-aws_ec2 and its stub answers.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdapterInstances, AdapterManager, runnerPath } from '../../core/adapters';
import { createPartsCatalog } from '../../core/engine/workflow/catalog';
import { missingParts } from '../../core/engine/workflow/parts';
import { storeDesiredStates } from '../../core/applications';
import { openStore } from '../../core/store/open';
import type { Store } from '../../core/store/port';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { FIXTURES, waitFor } from './support';

import { corpus, fixtures, noteCorpusSkip } from '../support/iap';

noteCorpusSkip('the Awsec2 tasks of the real AWS-EC2-REST workflows');

let dataDir: string;
let store: Store;
let instances: AdapterInstances;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'adapter-tasks-'));
  store = await openStore(dataDir, { id: 'tasks' });
  instances = await new AdapterInstances(new AdapterManager({ runner: runnerPath() }), { store, desired: storeDesiredStates(store), places: { sdkDir: FIXTURES } }).open();
  const sample = instances.sample('@itentialopensource/adapter-aws_ec2', 'aws-lab');
  await instances.create(sample);
  await instances.create({ ...instances.sample('@itentialopensource/adapter-inventory', 'inventory'), properties: { host: 'x', port: 1, stub: true } });
});
afterAll(async () => {
  await instances.close();
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** What one task needs, as the workflows list and a job start see it. */
function needsOf(id: string, task: Record<string, unknown>) {
  const adapters = { list: () => instances.callable(), methods: (app: string) => instances.methods(app), requiredInputs: (app: string, method: string) => instances.requiredInputs(app, method) };
  const catalog = createPartsCatalog({ adapters, transformationIds: [], workflowNames: [] });
  return missingParts({ [id]: task }, catalog).map((part) => part.label);
}

describe('adapter tasks checked against pronghorn.json', () => {
  it('names an unknown method and each missing required input', () => {
    expect(needsOf('t1', { app: 'inventory', name: 'deleteAll' })).toEqual(['method inventory.deleteAll (1 task)']);
    expect(needsOf('t2', { app: 'inventory', name: 'updateDevice', variables: { incoming: { name: 'r1' } } })).toEqual([
      'required input inventory.updateDevice: body (1 task)',
    ]);
    expect(needsOf('t3', { app: 'inventory', name: 'updateDevice', variables: { incoming: { name: 'r1', body: '$var.job.body' } } })).toEqual([]);
    expect(needsOf('t4', { app: 'WorkFlowEngine', name: 'query' })).toEqual([]);
  });

  it('calls by adapter type with adapter_id, and answers from the stub mock data in a response', async () => {
    await waitFor(async () => (await instances.manager.item('aws-lab')).connection?.state === 'ONLINE', 'aws-lab ONLINE');
    const answer = await instances.call('Awsec2', 'describeInstances', { adapter_id: 'aws-lab', filter: [], dryRun: false });
    expect(answer).toMatchObject({ ok: true, output: 'result' });
    expect((answer as { value: any }).value.response.DescribeInstancesResponse.reservationSet.item[0].instancesSet.item[0].instanceId).toBe('i-0fixture0001');
    await expect(instances.call('Awsec2', 'describeInstances', { adapter_id: 'aws-prod' })).rejects.toThrow('no Awsec2 adapter named "aws-prod" (adapter_id); Awsec2 adapters: aws-lab');
    expect(instances.resolve('Awsec2')).toBe('aws-lab');
    // A workflow calling the type (Awsec2) or the instance can start: both are callable.
    expect(instances.callable()).toEqual(expect.arrayContaining(['aws-lab', 'Awsec2', 'inventory', 'Inventory']));
    expect(instances.callable()).not.toContain('Servicenow');
  });

  for (const { source, folder, least } of [
    { source: fixtures, folder: 'Instance-Check-Example', least: 4 },
    { source: corpus, folder: 'AWS-EC2-REST', least: 21 },
  ]) it.skipIf(!source.present)(`every Awsec2 task of the ${folder} workflows checks against the test package ${source.tag}`, () => {
    let tasks = 0;
    const dir = path.join(source.prebuilt(folder), 'bundles', 'workflows');
    for (const file of readdirSync(dir)) {
      const workflow = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { tasks: Record<string, { app?: string; name: string; variables?: { incoming?: Record<string, unknown> } }> };
      for (const [id, task] of Object.entries(workflow.tasks)) {
        if (task.app !== 'Awsec2') continue;
        tasks += 1;
        expect(needsOf(id, task), `${file} task ${id}`).toEqual([]);
      }
    }
    expect(tasks).toBeGreaterThanOrEqual(least);
  });
});
