// The work queue names the incoming values that hold a secret (by name or content, the one
// classifier), so the panel masks them before the job is read; the values are answered as they are.
import { describe, expect, it } from 'vitest';
import { createWorklistService } from '../../core/worklist/service';
import type { ReadOnlyCollection } from '../../core/store/port';
import type { TaskRecord } from '../../core/engine/queue/queue';

const collection = (docs: Record<string, unknown>[]): ReadOnlyCollection => ({ name: 'fake', find: async () => docs, findOne: async () => docs[0] ?? null, count: async () => docs.length });

const task = (taskId: string, incoming: Record<string, unknown>) => ({ _id: `j1:${taskId}:0`, jobId: 'j1', taskId, iteration: 0, name: 'ViewData', app: 'WorkFlowEngine', status: 'waiting', queuedAt: 1, incoming });

describe('the work queue with secret incoming values', () => {
  it('names those holding a secret and answers every value as it is', async () => {
    const service = createWorklistService({
      // Records with the fields the work queue reads (a task record has more).
      tasks: () => collection([task('show', { header: 'Check', body: 'mongodb://u:pw-Planted-1@db/x', device_password: 'pw-2', port: 22 }), task('plain', { header: 'Check', body: 'nothing here' })]) as unknown as ReadOnlyCollection<TaskRecord>,
      jobs: () => collection([{ _id: 'j1', name: 'wf', status: 'running' }]),
      jobTasks: async () => ({}),
    });
    const { results } = await service.list({ skip: 0, limit: 10 });
    expect(results.map((r) => [r.taskId, r.secretIncoming])).toEqual([
      ['show', ['body', 'device_password']],
      ['plain', undefined],
    ]);
    expect(results[0]!.incoming).toMatchObject({ body: 'mongodb://u:pw-Planted-1@db/x', device_password: 'pw-2' });
  });
});
