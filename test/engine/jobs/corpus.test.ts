// The runner against the service's real exports (../shared/corpus/iap, read at run
// time): every WorkFlowEngine task they use is in the built-in table, and the
// "Create EC2 Instance - AWS" polling loop (evaluation → failure → delay → revert)
// runs to complete, with made-up adapter answers and JST results.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../core/engine/index';
import { methodRunner } from '../../../core/engine/jobs/execute';
import type { TaskDefinition } from '../../../core/engine/jobs/types';
import { builtInTasks } from '../../../core/engine/tasks/library';
import { tempEmbeddedStore, waitFor, type TempStore } from '../queue/support';

const CORPUS = path.resolve(import.meta.dirname, '../../../../shared/corpus/iap/prebuilts');
const present = existsSync(CORPUS);
if (!present) console.log(`skipping the corpus tests: ${CORPUS} is not there (the shared corpus of real exports)`);

type Workflow = { name: string; tasks: Record<string, TaskDefinition>; transitions: object };

function corpusWorkflows(): Workflow[] {
  const out: Workflow[] = [];
  for (const prebuilt of readdirSync(CORPUS)) {
    const dir = path.join(CORPUS, prebuilt, 'bundles', 'workflows');
    if (existsSync(dir)) for (const file of readdirSync(dir)) out.push(JSON.parse(readFileSync(path.join(dir, file), 'utf8')));
    for (const file of readdirSync(path.join(CORPUS, prebuilt)).filter((f) => f.endsWith('.project.json'))) {
      const project = JSON.parse(readFileSync(path.join(CORPUS, prebuilt, file), 'utf8')) as { components?: { type: string; document: Workflow }[] };
      for (const c of project.components ?? []) if (c.type === 'workflow') out.push(c.document);
    }
  }
  return out;
}

let temp: TempStore | undefined;
let engine: Engine | undefined;
afterEach(async () => {
  await engine?.close();
  await temp?.dispose();
});

describe.skipIf(!present)('the corpus of real exports', () => {
  it('uses only WorkFlowEngine tasks the built-in table has', () => {
    const workflows = corpusWorkflows();
    expect(workflows.length).toBeGreaterThanOrEqual(39);
    const used = new Set<string>();
    for (const w of workflows) for (const t of Object.values(w.tasks)) if (t.app === 'WorkFlowEngine') used.add(t.name);
    expect([...used].filter((name) => !builtInTasks.has(name))).toEqual([]);
    expect(used.size).toBeGreaterThan(10);
  });

  it('"Create EC2 Instance - AWS" polls with a revert loop until the instance is up, then completes', async () => {
    const file = path.join(CORPUS, 'AWS-EC2-REST/bundles/workflows/Create EC2 Instance - AWS.json');
    const workflow = JSON.parse(readFileSync(file, 'utf8')) as Workflow;
    const publicIp = '203.0.113.10';
    const answers: Record<string, unknown> = {
      runInstances: { instancesSet: { item: [{ instanceId: 'i-1' }] } },
      createTags: { return: true },
      describeInstanceStatus: { instanceStatusSet: {} },
      describeInstances: { response: { DescribeInstancesResponse: { reservationSet: { item: [{ instancesSet: { item: [{ networkInterfaceSet: { item: [{ association: { publicIp } }] } }] } }] } } } },
    };
    const calls: string[] = [];
    let statusChecks = 0;
    const builtIn = methodRunner(() => undefined);
    temp = await tempEmbeddedStore();
    engine = await new Engine({
      store: temp.store,
      serverId: 'test',
      serverName: 'test',
      processTasksOnStart: true,
      worker: { idleMs: 10 },
      // Read from the file as exported (its inputSchema has `$id` keys, which the store's key rules do not take as they are).
      loadWorkflow: async (name) => (name === workflow.name ? (workflow as never) : null),
      runMethod: async (task, incoming, options) => {
        if (task.app === 'Awsec2') {
          calls.push(`${task.name}(${String(incoming.adapter_id)})`);
          return { state: 'success', outgoing: { result: answers[task.name] } };
        }
        // The export waits 60 s between polls; the test does not.
        if (task.name === 'delay') return builtIn(task, { ...incoming, time: 0 }, options);
        return builtIn(task, incoming, options);
      },
      transformations: {
        async run(task) {
          if ('launchResponse' in task.variableMap) return { ec2Tags: [{ Key: 'Name', Value: task.variableMap.vpcName }], instanceIdArray: ['i-1'] };
          statusChecks += 1;
          return { launchComplete: statusChecks >= 2 };
        },
      },
    }).open();
    const started = await engine.runner.start(workflow.name, {
      variables: { imageId: 'ami-1', instanceType: 't3.micro', networkInterface: [], adapterId: 'aws-lab', vpcName: 'lab' },
    });
    const job = await waitFor('the EC2 job to end', async () => {
      const j = await engine!.runner.job(started._id);
      return j && j.status !== 'running' ? j : undefined;
    });
    expect(job.status, job.error).toBe('complete');
    expect(job.variables.publicIp).toBe(publicIp);
    expect(calls.filter((c) => c.startsWith('describeInstanceStatus'))).toEqual(['describeInstanceStatus(aws-lab)', 'describeInstanceStatus(aws-lab)']);
    const records = await engine.runner.records(job._id);
    const iterations = (taskId: string) => records.filter((r) => r.taskId === taskId).map((r) => `${r.iteration}:${r.finishState}`);
    expect(iterations('4b6d')).toEqual(['0:failure', '1:success']);
    expect(iterations('7220')).toEqual(['0:success']);
    expect(iterations('55d8')).toEqual(['0:success', '1:success']);
  });
});
