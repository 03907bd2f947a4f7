// The runner against the service's exports (the project's fixtures, and the real exports of
// ../shared/corpus/iap, read at run time, when they are there): every WorkFlowEngine task they
// use is in the built-in table, and an EC2 launch's polling loop (evaluation → failure → delay →
// revert) runs to complete, with made-up adapter answers and JST results.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../core/engine/index';
import { methodRunner } from '../../../core/engine/jobs/execute';
import type { TaskDefinition } from '../../../core/engine/jobs/types';
import { builtInTasks } from '../../../core/engine/tasks/library';
import { tempEmbeddedStore, waitFor, type TempStore } from '../queue/support';
import { corpus, fixtures, noteCorpusSkip, type IapSource } from '../../support/iap';
import { jobErrorText } from '../../../core/engine/jobs/job-error';

noteCorpusSkip('the runner on the real exports');

type Workflow = { name: string; tasks: Record<string, TaskDefinition>; transitions: object };

/** The workflows of a source's pre-built folders and of its project exports. */
function exportedWorkflows(source: IapSource): Workflow[] {
  const out = source.workflows().map(({ doc }) => doc as unknown as Workflow);
  for (const { doc } of source.projects()) {
    for (const c of (doc.components ?? []) as { type: string; document: Workflow }[]) if (c.type === 'workflow') out.push(c.document);
  }
  return out;
}

let temp: TempStore | undefined;
let engine: Engine | undefined;
afterEach(async () => {
  await engine?.close();
  await temp?.dispose();
});

describe.each([
  { source: fixtures, least: { workflows: 8, tasks: 6 }, file: 'Instance-Check-Example/bundles/workflows/Launch Instance - Example.json', ids: { evaluation: 'f606', delay: 'h808', status: 'd404' } },
  { source: corpus, least: { workflows: 39, tasks: 11 }, file: 'AWS-EC2-REST/bundles/workflows/Create EC2 Instance - AWS.json', ids: { evaluation: '4b6d', delay: '7220', status: '55d8' } },
])('the runner on exported workflows $source.tag', ({ source, least, file: workflowFile, ids }) => {
  it.skipIf(!source.present)('uses only WorkFlowEngine tasks the built-in table has', () => {
    const workflows = exportedWorkflows(source);
    expect(workflows.length).toBeGreaterThanOrEqual(least.workflows);
    const used = new Set<string>();
    for (const w of workflows) for (const t of Object.values(w.tasks)) if (t.app === 'WorkFlowEngine') used.add(t.name);
    expect([...used].filter((name) => !builtInTasks.has(name))).toEqual([]);
    expect(used.size).toBeGreaterThanOrEqual(least.tasks);
  });

  it.skipIf(!source.present)(`"${path.basename(workflowFile, '.json')}" polls with a revert loop until the instance is up, then completes`, async () => {
    const file = path.join(source.prebuiltsDir, workflowFile);
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
    expect(job.status, jobErrorText(job)).toBe('complete');
    expect(job.variables.publicIp).toBe(publicIp);
    expect(calls.filter((c) => c.startsWith('describeInstanceStatus'))).toEqual(['describeInstanceStatus(aws-lab)', 'describeInstanceStatus(aws-lab)']);
    const records = await engine.runner.records(job._id);
    const iterations = (taskId: string) => records.filter((r) => r.taskId === taskId).map((r) => `${r.iteration}:${r.finishState}`);
    expect(iterations(ids.evaluation)).toEqual(['0:failure', '1:success']);
    expect(iterations(ids.delay)).toEqual(['0:success']);
    expect(iterations(ids.status)).toEqual(['0:success', '1:success']);
  });
});
