// The work queue: manual tasks waiting for an operator, oldest first, each with the
// job and workflow it belongs to and the outgoing values its form asks for.
import type { Handler } from '../dispatch/dispatch';
import type { Collection } from '../store/port';
import type { WorkItem } from '../contract/worklist';
import { decodeVariables } from '../values/undefined-codec';

export interface WorklistDeps {
  /** The active profile's task records and jobs (read at each call: the profile can change). */
  tasks: () => Collection;
  jobs: () => Collection;
}

interface JobFields {
  _id: string;
  name: string;
  description?: string;
  status: WorkItem['job']['status'];
  tasks?: Record<string, { variables?: { outgoing?: Record<string, unknown> } }>;
}

export function createWorklistService(deps: WorklistDeps) {
  return {
    async list(query: { workflow?: string; skip: number; limit: number }) {
      const waiting = await deps.tasks().find({ status: 'waiting', childJob: { $exists: false } }, { sort: { queuedAt: 1 } });
      const jobIds = [...new Set(waiting.map((t) => String(t.jobId)))];
      const jobFilter: Record<string, unknown> = { _id: { $in: jobIds }, status: { $in: ['running', 'paused'] } };
      if (query.workflow) jobFilter.name = query.workflow;
      const jobs = new Map(
        ((await deps.jobs().find(jobFilter, { projection: { _id: 1, name: 1, description: 1, status: 1, tasks: 1 } })) as unknown as JobFields[]).map((j) => [j._id, j]),
      );
      const items: WorkItem[] = [];
      for (const task of waiting) {
        const job = jobs.get(String(task.jobId));
        if (!job) continue;
        const taskId = String(task.taskId);
        items.push({
          _id: String(task._id),
          jobId: job._id,
          taskId,
          iteration: Number(task.iteration ?? 0),
          name: String(task.name),
          app: String(task.app),
          ...(typeof task.summary === 'string' ? { summary: task.summary } : {}),
          queuedAt: Number(task.queuedAt),
          ...(task.incoming ? { incoming: decodeVariables(task.incoming as Record<string, unknown>) as Record<string, unknown> } : {}),
          outgoing: Object.keys(job.tasks?.[taskId]?.variables?.outgoing ?? {}),
          job: { name: job.name, ...(job.description ? { description: job.description } : {}), status: job.status },
        });
      }
      return { results: items.slice(query.skip, query.skip + query.limit), total: items.length, skip: query.skip, limit: query.limit };
    },
  };
}

export type WorklistService = ReturnType<typeof createWorklistService>;

export function worklistHandlers(service: WorklistService): { 'tasks.worklist': Handler<'tasks.worklist'> } {
  return { 'tasks.worklist': ({ query }) => service.list(query) };
}
