// evaluation in a running job: a comparison that cannot hold takes the failure transition the
// workflow's author wired, never the error one (issue #41: contains / !contains of a missing or
// null operand). Oracle: the documented rule, "false: the failure transition"
// (docs/null-undefined-matrix.md, evaluation operator by operator).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../core/engine/index';
import type { JobDoc } from '../../../core/engine/jobs/types';
import { tempEmbeddedStore, waitFor, workflow, type TempStore } from '../queue/support';

let temp: TempStore;
let engine: Engine;
beforeEach(async () => {
  temp = await tempEmbeddedStore();
  engine = await new Engine({ store: temp.store, serverId: 'test', serverName: 'test', processTasksOnStart: true, worker: { idleMs: 10 } }).open();
});
afterEach(async () => {
  await engine.close();
  await temp.dispose();
});

async function settle(id: string): Promise<JobDoc> {
  return waitFor(`job ${id} to settle`, async () => {
    const job = await engine.runner.job(id);
    return job && job.status !== 'running' ? job : undefined;
  });
}

const mark = (value: string) => ({ name: 'newVariable', variables: { incoming: { name: 'path', value }, outgoing: {} } });

/**
 * Runs a workflow of one evaluation (after the tasks of `before`, in order) whose success, failure and error
 * transitions each set the job variable `path` to their state; answers the job, which must complete.
 */
async function branch(name: string, evaluation: Record<string, unknown>, variables: Record<string, unknown>, before: Record<string, Record<string, unknown>> = {}) {
  const first = Object.keys(before);
  const chain = ['workflow_start', ...first, 'check'];
  await temp.store.collection('workflows').insertOne(
    workflow(
      name,
      {
        ...before,
        check: { name: 'evaluation', variables: { incoming: { all_true_flag: true, evaluation_groups: [{ all_true_flag: true, evaluations: [evaluation] }] }, outgoing: {} } },
        yes: mark('success'),
        no: mark('failure'),
        broke: mark('error'),
      },
      [
        ...chain.slice(1).map((to, i): [string, string] => [chain[i]!, to]),
        ['check', 'yes', 'success'],
        ['check', 'no', 'failure'],
        ['check', 'broke', 'error'],
        ['yes', 'workflow_end'],
        ['no', 'workflow_end'],
        ['broke', 'workflow_end'],
      ],
    ),
  );
  const job = await settle((await engine.runner.start(name, { variables }))._id);
  expect(job.status, `${name}: ${String(job.error)}`).toBe('complete');
  return job;
}

describe('evaluation in a job', () => {
  for (const operator of ['contains', '!contains']) {
    it(`${operator} of a missing job variable, of null and of a query finding nothing takes the failure transition`, async () => {
      const operands: [string, unknown, string?][] = [['missing', '$var.job.missing'], ['null', null], ['no match', { a: 1 }, 'list.items']];
      for (const [label, operand_1, query] of operands) {
        const name = `eval ${operator} ${label}`;
        const evaluation = { operand_1, operator, operand_2: 'x', ...(query ? { query } : {}) };
        const job = await branch(name, evaluation, {});
        expect(job.variables.path, name).toBe('failure');
      }
    });
  }
});

describe('evaluation in a job, as the service runs it', () => {
  const merge = { m: { name: 'merge', variables: { incoming: { data_to_merge: [{ key: 'bgp', value: { task: 'job', variable: 'peer' } }] }, outgoing: {} } } };
  const run = async (name: string, evaluation: Record<string, unknown>) =>
    (await branch(name, evaluation, { peer: { state: 'Established', version: '15.2(4)M' } }, merge)).variables.path;

  it('reads a reference with a JSON pointer ($var.m.merged_object#/bgp/state) and contains as a pattern', async () => {
    expect(await run('pattern holds', { operand_1: '$var.m.merged_object#/bgp/state', operator: 'contains', operand_2: 'Established|Active' })).toBe('success');
    expect(await run('pattern fails', { operand_1: '$var.m.merged_object#/bgp/version', operator: 'contains', operand_2: '15.2(4)' })).toBe('failure');
    expect(await run('escaped text', { operand_1: '$var.m.merged_object#/bgp/version', operator: 'contains', operand_2: '15\\.2\\(4\\)' })).toBe('success');
  });

  it('takes the failure transition for an operator the service does not know', async () => {
    expect(await run('unknown operator', { operand_1: '$var.m.merged_object#/bgp/state', operator: 'matches', operand_2: 'Established' })).toBe('failure');
  });
});
