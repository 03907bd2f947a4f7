// Workflow tasks that call adapters: checked against pronghorn.json (unknown method, missing
// required input), and called by instance name or, as the service's exports do, by adapter type
// with the instance in `adapter_id`. The AWS-EC2-REST corpus workflows' Awsec2 tasks all check
// against the test package test/adapters/fixtures/adapter-aws_ec2 and its stub answers.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdapterInstances, AdapterManager, adapterTaskProblems, runnerPath } from '../../core/adapters';
import { storeDesiredStates } from '../../core/applications';
import { openStore } from '../../core/store/open';
import type { Store } from '../../core/store/port';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { FIXTURES, waitFor } from './support';

const AWS_WORKFLOWS = path.resolve(import.meta.dirname, '../../../shared/corpus/iap/prebuilts/AWS-EC2-REST/bundles/workflows');
const corpusPresent = existsSync(AWS_WORKFLOWS);
if (!corpusPresent) console.warn(`skipped the corpus part: no AWS-EC2-REST workflows at ${AWS_WORKFLOWS}`);

let dataDir: string;
let store: Store;
let instances: AdapterInstances;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'adapter-tasks-'));
  store = await openStore(dataDir, { id: 'tasks' } as never);
  instances = await new AdapterInstances(new AdapterManager({ runner: runnerPath() }), store, storeDesiredStates(store), { sdkDir: FIXTURES }).open();
  const sample = instances.sample('@itentialopensource/adapter-aws_ec2', 'aws-lab');
  await instances.create(sample);
  await instances.create({ ...instances.sample('@itentialopensource/adapter-inventory', 'inventory'), properties: { host: 'x', port: 1, stub: true } });
});
afterAll(async () => {
  await instances.close();
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('adapter tasks checked against pronghorn.json', () => {
  it('names an unknown method and each missing required input', () => {
    expect(adapterTaskProblems('t1', { app: 'inventory', name: 'deleteAll' }, instances)).toEqual([
      { path: 'tasks.t1.name', task: 't1', message: 'task "t1": adapter inventory (@itentialopensource/adapter-inventory) has no method "deleteAll" in its pronghorn.json' },
    ]);
    expect(adapterTaskProblems('t2', { app: 'inventory', name: 'updateDevice', variables: { incoming: { name: 'r1' } } }, instances)).toEqual([
      { path: 'tasks.t2.variables.incoming.body', task: 't2', message: 'task "t2": inventory.updateDevice requires input "body" (object)' },
    ]);
    expect(adapterTaskProblems('t3', { app: 'inventory', name: 'updateDevice', variables: { incoming: { name: 'r1', body: '$var.job.body' } } }, instances)).toEqual([]);
    expect(adapterTaskProblems('t4', { app: 'WorkFlowEngine', name: 'query' }, instances)).toEqual([]);
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

  it.skipIf(!corpusPresent)('every Awsec2 task of the AWS-EC2-REST workflows checks against the test package', () => {
    let tasks = 0;
    for (const file of readdirSync(AWS_WORKFLOWS)) {
      const workflow = JSON.parse(readFileSync(path.join(AWS_WORKFLOWS, file), 'utf8')) as { tasks: Record<string, { app?: string; name: string; variables?: { incoming?: Record<string, unknown> } }> };
      for (const [id, task] of Object.entries(workflow.tasks)) {
        if (task.app !== 'Awsec2') continue;
        tasks += 1;
        expect(adapterTaskProblems(id, task, instances), `${file} task ${id}`).toEqual([]);
      }
    }
    expect(tasks).toBeGreaterThan(20);
  });
});
