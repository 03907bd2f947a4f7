// A childJob loop's end, as the service answers it: job_details holds the loop's status beside `loop`,
// each child's status and variables (its childJobLoopIndex among them), in data_array's order.
import { describe, expect, it } from 'vitest';
import { loopOutcome } from '../../../core/engine/jobs/children';
import type { JobDoc } from '../../../core/engine/jobs/types';

const child = (i: number, status: string): JobDoc => ({ _id: `c${i}`, name: 'child', status, variables: { childJobLoopIndex: i, out: `v${i}` }, metrics: { start_time: i } }) as unknown as JobDoc;

describe('loopOutcome', () => {
  it('is a success whose status is complete when every child completed', () => {
    const outcome = loopOutcome({ type: 'parallel', ids: ['c0', 'c1'], variables: [{}, {}] }, [child(0, 'complete'), child(1, 'complete')]);
    expect(outcome).toEqual({
      state: 'success',
      outgoing: { job_details: { status: 'complete', loop: [{ _id: 'c0', status: 'complete', childJobLoopIndex: 0, out: 'v0' }, { _id: 'c1', status: 'complete', childJobLoopIndex: 1, out: 'v1' }] } },
    });
  });

  it('is an error whose status is error when a child did not complete, naming it', () => {
    const outcome = loopOutcome({ type: 'parallel', ids: ['c0', 'c1'], variables: [{}, {}] }, [child(0, 'complete'), child(1, 'error')]);
    expect(outcome?.state).toBe('error');
    expect(outcome?.error).toBe('1 of 2 child jobs did not complete: c1 (error)');
    expect((outcome?.outgoing.job_details as { status: string; loop: unknown[] }).status).toBe('error');
    expect((outcome?.outgoing.job_details as { loop: unknown[] }).loop).toHaveLength(2);
  });

  it('waits while a child runs', () => {
    expect(loopOutcome({ type: 'parallel', ids: ['c0', 'c1'], variables: [{}, {}] }, [child(0, 'complete'), child(1, 'running')])).toBeUndefined();
  });
});
