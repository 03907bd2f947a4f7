// A job's `error` as the service stores it and its clients read it: `[{ task, message, timestamp }]`.
// The vendor's operator guide finds what went wrong from `data.error[]` (which task, and why), reads
// that task's state in `data.tasks`, then retries the task; a job of an earlier console version that
// holds one text answers it as one entry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobErrors, jobErrorText } from '../../../core/engine/jobs/job-error';
import { jobSummary } from '../../../core/engine/jobs/view';
import type { JobDoc } from '../../../core/engine/jobs/types';
import { callJson, jobWhenSettled, startTestHost, type TestHost } from '../../support/host';
import { seedCockpit } from '../../support/cockpit';

const stored = (error: unknown): JobDoc => ({
  _id: 'j1',
  name: 'wf',
  status: 'error',
  variables: {},
  metrics: { start_time: 1, user: 'admin' },
  children: [],
  tasks: {},
  transitions: {},
  last_updated: 1_700_000_000_000,
  ...(error === undefined ? {} : { error: error as JobDoc['error'] }),
});

describe("a job's error", () => {
  it('reads the service array as stored, keeping what else an entry carries, and one text of an earlier version as one entry', () => {
    const answer = { status: 502, body: { reason: 'unreachable' } };
    const service = [{ task: 'a1b2', message: answer, timestamp: 5, origin: 'adapter' }];
    expect(jobErrors(stored(service))).toEqual(service);
    expect(jobErrorText(stored(service))).toBe('{"status":502,"body":{"reason":"unreachable"}}');
    expect(jobSummary(stored('task cp failed')).error).toEqual([{ task: 'job', message: 'task cp failed', timestamp: 1_700_000_000_000 }]);
    expect(jobErrorText(stored([{ task: 'a', message: 'one', timestamp: 1 }, { task: 'b', message: 'two', timestamp: 2 }]))).toBe('one; two');
    expect(jobSummary(stored(undefined))).not.toHaveProperty('error');
    expect(jobErrors(stored(''))).toEqual([]);
  });

  describe('over HTTP, as the operator guide reads it', () => {
    let host: TestHost;
    let jobId: string;
    beforeAll(async () => {
      host = await startTestHost();
      jobId = (await seedCockpit(host, { errored: 1, waiting: 0 })).errored[0]!;
    }, 60_000);
    afterAll(() => host?.dispose());

    it('names the failed task and why; the task shows the error; a retry with changed variables clears it', async () => {
      const { status, body } = await callJson(host, `/operations-manager/jobs/${jobId}`);
      expect(status).toBe(200);
      expect(body.data.status).toBe('error');
      expect(body.data.error).toEqual([{ task: 'cp', message: expect.stringMatching(/^task cp \(codePointAt\) failed with no error transition: codePointAt: pos 1 is out of range/), timestamp: expect.any(Number) }]);
      const failed = body.data.error[0].task;
      expect(body.data.tasks[failed]).toMatchObject({ name: 'codePointAt', status: 'error', metrics: { finish_state: 'error' } });
      // The jobs list carries it too (the guide's daily check: jobs in error, then each one's error).
      const list = await callJson(host, '/operations-manager/jobs?equals[status]=error');
      expect(list.body.data.find((j: { _id: string }) => j._id === jobId).error).toEqual(body.data.error);

      const retried = await callJson(host, `/operations-manager/jobs/${jobId}/tasks/${failed}/retry`, { method: 'POST', json: { variables: { s: 'xy' } } });
      expect(retried.status).toBe(200);
      const after = await jobWhenSettled(host, jobId);
      expect(after.status).toBe('complete');
      expect(after).not.toHaveProperty('error');
      expect(after.variables.cp).toBe(121);
    });
  });
});
