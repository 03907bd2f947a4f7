// The aggregates over days and over records the HTTP test cannot make: jobs and runs on two UTC
// days (a period each, from the first start that day), a run whose job is gone (global row only),
// a run of an edited task (another method under the same taskId: a row of its own). The oracle is
// the arithmetic of the inputs, written out.
import { describe, expect, it } from 'vitest';
import { aggregateJobMetrics, aggregateTaskMetrics, type EndedTaskRun } from '../../../core/engine/metrics/aggregate';
import { searchMetrics } from '../../../core/engine/metrics/search';

const DAY1 = Date.parse('2022-03-01T23:59:00Z');
const DAY2 = Date.parse('2022-03-02T00:01:00Z');

describe('aggregateJobMetrics', () => {
  it('answers a period per UTC day, from the first start that day, and the totals over them', () => {
    const [result] = aggregateJobMetrics([
      { name: 'wf', metrics: { start_time: DAY1 + 10, end_time: DAY1 + 110 } },
      { name: 'wf', metrics: { start_time: DAY1, end_time: DAY1 + 50 } },
      { name: 'wf', metrics: { start_time: DAY2, end_time: DAY2 + 1000 } },
      { name: 'wf', metrics: { end_time: DAY2 } },
    ]);
    expect(result).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      workflow: { name: 'wf' },
      metrics: [
        { startDate: '2022-03-01T23:59:00.000Z', jobsComplete: 2, totalRunTime: 150 },
        { startDate: '2022-03-02T00:01:00.000Z', jobsComplete: 1, totalRunTime: 1000 },
      ],
      jobsComplete: 3,
      totalRunTime: 1150,
    });
  });
});

describe('aggregateTaskMetrics', () => {
  const run = (extra: Partial<EndedTaskRun>): EndedTaskRun => ({ taskId: 'a1', name: 'push', app: 'WorkFlowEngine', type: 'automatic', status: 'complete', metrics: { start_time: DAY1, end_time: DAY1 + 5 }, workflow: 'wf', ...extra });

  it('counts successes and errors with their run times, per day, in the global row and the workflow task row', () => {
    const rows = aggregateTaskMetrics([
      run({}),
      run({ status: 'error', metrics: { start_time: DAY2, end_time: DAY2 + 7 } }),
      run({ workflow: undefined }),
      run({ name: 'pop', type: 'manual' }),
    ]);
    const find = (global: boolean, name: string) => rows.find((r) => r.global === global && r.name === name);
    expect(rows).toHaveLength(4);
    expect(find(true, 'push')).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      global: true,
      name: 'push',
      app: 'WorkFlowEngine',
      taskType: 'automatic',
      metrics: [
        { startDate: '2022-03-01T23:59:00.000Z', totalSuccesses: 2, totalErrors: 0, totalSuccessRunTime: 10, totalErrorRunTime: 0 },
        { startDate: '2022-03-02T00:01:00.000Z', totalSuccesses: 0, totalErrors: 1, totalSuccessRunTime: 0, totalErrorRunTime: 7 },
      ],
    });
    expect(find(false, 'push')).toMatchObject({ taskId: 'a1', workflow: { name: 'wf' }, metrics: [{ totalSuccesses: 1 }, { totalErrors: 1 }] });
    expect(find(false, 'pop')).toMatchObject({ taskId: 'a1', taskType: 'manual', metrics: [{ totalSuccesses: 1 }] });
    expect(new Set(rows.map((r) => r._id)).size).toBe(4);
  });
});

describe('searchMetrics', () => {
  it('sorts absent values first, numbers before strings, ties by _id; reads own fields only', () => {
    const rows = [
      { _id: 'c', metrics: [], workflow: { name: 'b' } },
      { _id: 'b', metrics: [] },
      { _id: 'a', metrics: [], workflow: { name: 'a' } },
      { _id: 'd', metrics: [] },
    ];
    expect(searchMetrics(rows, { order: 1, sort: 'workflow.name', skip: 0 }).results.map((r) => r._id)).toEqual(['b', 'd', 'a', 'c']);
    expect(searchMetrics(rows, { order: -1, sort: 'workflow.name', skip: 1, limit: 2 })).toMatchObject({ results: [{ _id: 'a' }, { _id: 'b' }], skip: 1, limit: 2, total: 4 });
    expect(searchMetrics(rows, { order: 1, sort: '__proto__.x', skip: 0, match: { field: 'constructor.name', equals: 'Object' } }).total).toBe(0);
  });
});
