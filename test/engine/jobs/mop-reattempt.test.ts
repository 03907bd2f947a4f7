// MOP's reattempt, as the F5 BIG-IQ pre-builts poll a device task with it: query, check, and on
// failure reattempt, whose success transition is a revert to the query and whose error
// transition is taken once `attempts` reattempts were made.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../core/engine/index';
import { createPartsCatalog } from '../../../core/engine/workflow/catalog';
import { missingParts } from '../../../core/engine/workflow/parts';
import { tempEmbeddedStore, waitFor, type TempStore } from '../queue/support';
import { corpus, fixtures, noteCorpusSkip } from '../../support/iap';
import { jobErrorText } from '../../../core/engine/jobs/job-error';

noteCorpusSkip('the MOP reattempt of a real export');

let temp: TempStore | undefined;
let engine: Engine | undefined;
afterEach(async () => {
  await engine?.close();
  await temp?.dispose();
  engine = undefined;
  temp = undefined;
});

type T = Record<string, unknown>;
const task = (name: string, variables: T, extra: T = {}) => ({ name, type: 'automatic', location: 'Application', app: 'WorkFlowEngine', variables, ...extra });

/** The pre-builts' loop: `ready` turns true once the job variable `polls` reaches `readyAfter`. */
function pollingWorkflow(attempts: number) {
  return {
    name: 'poll device task',
    tasks: {
      workflow_start: { name: 'workflow_start' },
      workflow_end: { name: 'workflow_end' },
      queryTaskStatus: task('push', { incoming: { job_variable: 'polls', item: 'polled' }, outgoing: {} }),
      count: task('arrayLength', { incoming: { arr: '$var.job.polls' }, outgoing: { length: '$var.job.count' } }),
      check: task('evaluation', {
        incoming: { all_true_flag: true, evaluation_groups: [{ all_true_flag: true, evaluations: [{ query: '', operand_1: { task: 'count', variable: 'length' }, operator: '>=', operand_2: '$var.job.readyAfter' }] }] },
        outgoing: { return_value: null },
      }),
      '8388': task('reattempt', { incoming: { job_id: '$var.job._id', attemptID: 'queryTaskStatus', minutes: 0.0001, attempts }, outgoing: { response: '' } }, { app: 'MOP', summary: 'Delay and Query Device Task Status' }),
      gaveUp: task('newVariable', { incoming: { name: 'gaveUp', value: true }, outgoing: { value: null } }),
    },
    transitions: {
      workflow_start: { queryTaskStatus: { type: 'standard', state: 'success' } },
      queryTaskStatus: { count: { type: 'standard', state: 'success' } },
      count: { check: { type: 'standard', state: 'success' } },
      check: { workflow_end: { type: 'standard', state: 'success' }, '8388': { type: 'standard', state: 'failure' } },
      '8388': { queryTaskStatus: { type: 'revert', state: 'success' }, gaveUp: { type: 'standard', state: 'error' } },
      gaveUp: { workflow_end: { type: 'standard', state: 'success' } },
      workflow_end: {},
    },
  };
}

async function run(attempts: number, readyAfter: number, mopRunning = true) {
  temp = await tempEmbeddedStore();
  const applicationRunning = (app: string) => app !== 'MOP' || mopRunning;
  engine = await new Engine({ store: temp.store, serverId: 'test', serverName: 'test', processTasksOnStart: true, worker: { idleMs: 10 }, applicationRunning }).open();
  await temp.store.collection('workflows').insertOne(pollingWorkflow(attempts));
  const { _id } = await engine.runner.start('poll device task', { variables: { readyAfter } });
  const job = await waitFor(`job ${_id} to end`, async () => {
    const j = await engine!.runner.job(_id);
    return j && j.status !== 'running' ? j : undefined;
  });
  const reattempts = (await engine.runner.records(_id)).filter((r) => r.taskId === '8388').sort((a, b) => a.iteration - b.iteration);
  return { job, reattempts };
}

describe('MOP reattempt', () => {
  it('waits, then follows its revert transition to the polled task until the check passes', async () => {
    const { job, reattempts } = await run(5, 3);
    expect(job.status, jobErrorText(job)).toBe('complete');
    expect(job.variables.count).toBe(3);
    expect(job.variables.gaveUp).toBeUndefined();
    expect(reattempts.map((r) => [r.finishState, r.outgoing?.response])).toEqual([
      ['success', 'reattempting queryTaskStatus (1 of 5)'],
      ['success', 'reattempting queryTaskStatus (2 of 5)'],
    ]);
  });

  it('after `attempts` reattempts, ends in error and the workflow takes its error transition', async () => {
    const { job, reattempts } = await run(2, 100);
    expect(job.status, jobErrorText(job)).toBe('complete');
    expect(job.variables.count).toBe(3);
    expect(job.variables.gaveUp).toBe(true);
    expect(reattempts.map((r) => r.finishState)).toEqual(['success', 'success', 'error']);
    expect(reattempts[2]!.error).toBe('queryTaskStatus was attempted again 2 times: no attempt left');
  });

  it('is refused while the MOP application is stopped, naming it and how to start it', async () => {
    const { job, reattempts } = await run(5, 3, false);
    expect(job.variables.gaveUp).toBe(true);
    expect(reattempts.map((r) => r.error)).toEqual(['MOP is STOPPED, so its task reattempt is refused; start it from the Health page or with PUT /applications/MOP/start']);
  });

  for (const { source, file, adapter } of [
    { source: fixtures, file: 'Instance-Check-Example/bundles/workflows/Wait for Device Sync - Example.json', adapter: 'Inventory' },
    { source: corpus, file: 'F5-BIG-IQ-REST/bundles/workflows/Discover_BIG-IP_Device_-_F5_-_BIG-IQ.json', adapter: 'F5BigIQ' },
  ]) {
    it.skipIf(!source.present)(`is a part the console has: an export polling with MOP.reattempt no longer needs it ${source.tag}`, () => {
      const exported = JSON.parse(readFileSync(path.join(source.prebuiltsDir, file), 'utf8')) as { tasks: Record<string, unknown> };
      const needs = missingParts(exported.tasks, createPartsCatalog({ transformationIds: [], workflowNames: [] })).map((p) => `${p.kind} ${p.name}`);
      expect(needs.some((n) => n.includes('reattempt'))).toBe(false);
      expect(needs).toContain(`adapter ${adapter}`);
    });
  }
});
