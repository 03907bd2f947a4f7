// The transformation task in a running job: the engine runs the stored document the task
// names (the project's fixtures; the real exports too when the corpus is there), and the
// workflow's outgoing map writes job variables; a task naming a document that is not stored
// ends in error naming the _id.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../core/engine/index';
import { methodRunner } from '../../core/engine/jobs/execute';
import { createTransformationsService } from '../../core/transformations/service';
import { transformationRunner } from '../../core/transformations/task';
import { tempEmbeddedStore, waitFor, type TempStore } from '../engine/queue/support';
import { corpus, fixtures, noteCorpusSkip } from './corpus';
import { jobErrorText } from '../../core/engine/jobs/job-error';

noteCorpusSkip('a real workflow with its real transformations');

let temp: TempStore | undefined;
let engine: Engine | undefined;
afterEach(async () => {
  await engine?.close();
  await temp?.dispose();
});

const step = (state = 'success') => ({ type: 'standard', state });

describe('the transformation task in a job', () => {
  it('runs the stored document and writes its outgoing values as the workflow says', async () => {
    temp = await tempEmbeddedStore();
    const service = createTransformationsService({ store: () => temp!.store });
    const filter = fixtures.transformation('Build Tag Filter - Example');
    const status = fixtures.transformation('Process Instance State - Example');
    expect((await service.importTransformations([filter, status])).imported).toHaveLength(2);

    const workflow = {
      name: 'VPC lookup',
      tasks: {
        workflow_start: { name: 'workflow_start' },
        workflow_end: { name: 'workflow_end' },
        a1: {
          name: 'transformation', app: 'WorkFlowEngine', type: 'operation',
          variables: { incoming: { tr_id: filter._id, variableMap: { deviceName: '$var.job.deviceName' }, options: { extractOutput: true, validateIncoming: true, revertToDefaultValue: true } }, outgoing: { tagFilter: '$var.job.tagFilter' } },
        },
        b2: {
          name: 'transformation', app: 'WorkFlowEngine', type: 'operation',
          variables: { incoming: { tr_id: status._id, variableMap: { statusResponse: '$var.job.statusResponse' }, options: { extractOutput: true } }, outgoing: { launchComplete: '$var.job.launchComplete' } },
        },
      },
      transitions: { workflow_start: { a1: step() }, a1: { b2: step() }, b2: { workflow_end: step() } },
    };
    engine = await new Engine({
      store: temp.store,
      serverId: 'test',
      serverName: 'test',
      processTasksOnStart: true,
      worker: { idleMs: 10 },
      loadWorkflow: async (name) => (name === workflow.name ? workflow : null),
      transformations: transformationRunner(service.resolve),
    }).open();
    const statusResponse = { response: { DescribeInstanceStatusResponse: { instanceStatusSet: { item: [{ instanceState: { name: 'running' }, systemStatus: { status: 'ok' }, instanceStatus: { status: 'ok' } }] } } } };
    const started = await engine.runner.start(workflow.name, { variables: { deviceName: 'core-9', statusResponse } });
    const job = await waitFor('the job to end', async () => {
      const j = await engine!.runner.job(started._id);
      return j && j.status !== 'running' ? j : undefined;
    });
    expect(job.status, jobErrorText(job)).toBe('complete');
    expect(job.variables.tagFilter).toEqual([{ Name: 'tag:Name', Values: 'core-9' }]);
    expect(job.variables.launchComplete).toBe(true);
  });

  it('a task naming a document that is not stored ends in error naming its _id', async () => {
    temp = await tempEmbeddedStore();
    const service = createTransformationsService({ store: () => temp!.store });
    const workflow = {
      name: 'missing JST',
      tasks: {
        workflow_start: { name: 'workflow_start' },
        workflow_end: { name: 'workflow_end' },
        a1: { name: 'transformation', app: 'WorkFlowEngine', type: 'operation', variables: { incoming: { tr_id: '000000000000000000000000', variableMap: {} }, outgoing: { out: null } } },
      },
      transitions: { workflow_start: { a1: step() }, a1: { workflow_end: step() } },
    };
    engine = await new Engine({
      store: temp.store,
      serverId: 'test',
      serverName: 'test',
      processTasksOnStart: true,
      worker: { idleMs: 10 },
      loadWorkflow: async (name) => (name === workflow.name ? workflow : null),
      transformations: transformationRunner(service.resolve),
    }).open();
    const started = await engine.runner.start(workflow.name, {});
    const records = await waitFor('the task to end', async () => {
      const r = (await engine!.runner.records(started._id)).filter((x) => x.taskId === 'a1' && x.finishState);
      return r.length > 0 ? r : undefined;
    });
    expect(records[0]!.finishState).toBe('error');
    expect(JSON.stringify(records[0])).toContain('no transformation with _id \\"000000000000000000000000\\" in this profile');
  });
});

describe.each([
  { source: fixtures, workflowFile: 'Instance-Check-Example/bundles/workflows/Launch Instance - Example.json', jsts: ['Build Instance Tags - Example', 'Process Instance State - Example'], tag: 'Web Server for lab' },
  { source: corpus, workflowFile: 'AWS-EC2-REST/bundles/workflows/Create EC2 Instance - AWS.json', jsts: ['Build EC2 Tag Data', 'Process Instance Status'], tag: 'Apache Web Server for lab' },
])('an exported workflow with its exported transformations $source.tag', ({ source, workflowFile, jsts, tag }) => {
  it.skipIf(!source.present)(`"${path.basename(workflowFile, '.json')}" runs its two JST tasks on the adapter answers and completes`, async () => {
    const workflow = JSON.parse(readFileSync(path.join(source.prebuiltsDir, workflowFile), 'utf8')) as { name: string };
    temp = await tempEmbeddedStore();
    const service = createTransformationsService({ store: () => temp!.store });
    await service.importTransformations(jsts.map((name) => source.transformation(name)));

    let statusCalls = 0;
    const instanceStatus = (name: string) => ({ response: { DescribeInstanceStatusResponse: { instanceStatusSet: { item: [{ instanceState: { name }, systemStatus: { status: 'ok' }, instanceStatus: { status: 'ok' } }] } } } });
    const answers: Record<string, () => unknown> = {
      runInstances: () => ({ response: { RunInstancesResponse: { instancesSet: { item: [{ instanceId: 'i-0abc' }] } } } }),
      createTags: () => ({ return: true }),
      describeInstanceStatus: () => instanceStatus(++statusCalls >= 2 ? 'running' : 'pending'),
      describeInstances: () => ({ response: { DescribeInstancesResponse: { reservationSet: { item: [{ instancesSet: { item: [{ networkInterfaceSet: { item: [{ association: { publicIp: '203.0.113.7' } }] } }] } }] } } } }),
    };
    const tagCalls: unknown[] = [];
    const builtIn = methodRunner(() => undefined);
    engine = await new Engine({
      store: temp.store,
      serverId: 'test',
      serverName: 'test',
      processTasksOnStart: true,
      worker: { idleMs: 10 },
      loadWorkflow: async (name) => (name === workflow.name ? (workflow as never) : null),
      runMethod: async (task, incoming, options) => {
        if (task.app === 'Awsec2') {
          if (task.name === 'createTags') tagCalls.push(incoming);
          return { state: 'success', outgoing: { result: answers[task.name]!() } };
        }
        if (task.name === 'delay') return builtIn(task, { ...incoming, time: 0 }, options);
        return builtIn(task, incoming, options);
      },
      transformations: transformationRunner(service.resolve),
    }).open();
    const started = await engine.runner.start(workflow.name, {
      variables: { imageId: 'ami-1', instanceType: 't3.micro', networkInterface: [], adapterId: 'aws-lab', vpcName: 'lab' },
    });
    const job = await waitFor('the EC2 job to end', async () => {
      const j = await engine!.runner.job(started._id);
      return j && j.status !== 'running' ? j : undefined;
    });
    expect(job.status, jobErrorText(job)).toBe('complete');
    expect(job.variables.publicIp).toBe('203.0.113.7');
    expect(statusCalls).toBe(2);
    // Build EC2 Tag Data's outgoing values reached the createTags call.
    expect(JSON.stringify(tagCalls)).toContain(tag);
    expect(JSON.stringify(tagCalls)).toContain('i-0abc');
  });
});
