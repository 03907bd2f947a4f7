// Which tasks may run next, from the workflow and the records alone.
import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../../../core/values/frozen';
import { readyTasks, type RecordState, type Transitions } from '../../../core/engine/jobs/graph';

const t = (edges: [string, string, string?][]): Transitions => {
  const table: Transitions = {};
  for (const [src, dst, state] of edges) (table[src] ??= {})[dst] = { type: 'standard', state: (state ?? 'success') };
  return table;
};
const done = (taskId: string, finishState = 'success', from: string[] = []): RecordState => ({ _id: `${taskId}:0`, taskId, iteration: 0, status: 'complete', finishState, from });
const running = (taskId: string, from: string[] = []): RecordState => ({ _id: `${taskId}:0`, taskId, iteration: 0, status: 'running', from });
const ids = (ready: { taskId: string }[]) => ready.map((r) => r.taskId).sort();

// start → x → j ; start → y → j ; y → z → j ; j → end
const diamond = t([
  ['workflow_start', 'x'],
  ['workflow_start', 'y'],
  ['x', 'j'],
  ['y', 'j'],
  ['y', 'z'],
  ['z', 'j'],
  ['j', 'workflow_end'],
]);
const tasks = ['workflow_start', 'workflow_end', 'x', 'y', 'z', 'j'];

describe('ready tasks', () => {
  it('starts every branch of a fork', () => {
    expect(ids(readyTasks(tasks, diamond, [done('workflow_start')]))).toEqual(['x', 'y']);
  });

  it('a join waits while a branch is running', () => {
    const records = [done('workflow_start'), done('x', 'success', ['workflow_start:0']), running('y', ['workflow_start:0'])];
    expect(readyTasks(tasks, diamond, records)).toEqual([]);
  });

  it('a join waits for a task the finished branch is about to start', () => {
    const records = [done('workflow_start'), done('x', 'success', ['workflow_start:0']), done('y', 'success', ['workflow_start:0'])];
    // y's success starts z, and z leads into j: j must not start yet.
    expect(ids(readyTasks(tasks, diamond, records))).toEqual(['z']);
  });

  it('a branch that was not taken is eliminated, so the join runs', () => {
    const records = [done('workflow_start'), done('x', 'success', ['workflow_start:0']), done('y', 'failure', ['workflow_start:0'])];
    // y failed: y → j and y → z are dead, z can never run, j starts with x alone.
    const ready = readyTasks(tasks, diamond, records);
    expect(ready).toEqual([{ taskId: 'j', iteration: 0, from: ['x:0'] }]);
  });

  it('creates nothing twice: a task that ran is not ready again without a new arrival', () => {
    const records = [done('workflow_start'), done('x', 'success', ['workflow_start:0']), done('y', 'failure', ['workflow_start:0']), running('j', ['x:0'])];
    expect(readyTasks(tasks, diamond, records)).toEqual([]);
  });

  it('a frozen workflow gives every job the same answers, and a transitions object still changing is read afresh', () => {
    const frozen = deepFreeze(t([['workflow_start', 'x'], ['x', 'y'], ['y', 'workflow_end']]));
    const chain = ['workflow_start', 'x', 'y', 'workflow_end'];
    for (let job = 0; job < 3; job++) {
      expect(ids(readyTasks(chain, frozen, [done('workflow_start')]))).toEqual(['x']);
      expect(ids(readyTasks(chain, frozen, [done('workflow_start'), done('x', 'success', ['workflow_start:0'])]))).toEqual(['y']);
    }
    const changing = t([['workflow_start', 'x'], ['x', 'y']]);
    const records = [done('workflow_start'), done('x', 'success', ['workflow_start:0'])];
    expect(ids(readyTasks(chain, changing, records))).toEqual(['y']);
    changing.x = { workflow_end: { type: 'standard', state: 'success' } };
    expect(ids(readyTasks(chain, changing, records))).toEqual(['workflow_end']);
  });
});
