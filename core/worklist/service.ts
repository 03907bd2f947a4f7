// The work queue: manual tasks waiting for an operator, oldest first, each with the
// job and workflow it belongs to, the outgoing values its form asks for and who claimed
// it; "mine" and "unassigned" views; and the history of the tasks operators finished.
import type { Handler } from '../dispatch/dispatch';
import type { ReadOnlyCollection } from '../store/port';
import type { TaskRecord } from '../engine/queue/queue';
import type { FinishedItem, WorkItem } from '../contract/worklist';
import { decodeVariables } from '../values/undefined-codec';
import { ConsoleError } from '../errors';
import { claimsOf, type ClaimActions } from './claims';
import { getTask, searchTasks } from './search';
import type { ListQueryOf } from '../values/list-query';
import { secretVariables } from '../engine/jobs/secret-variables';

export interface WorklistDeps {
  /** The active profile's task records and jobs (read at each call: the profile can change). */
  tasks: () => ReadOnlyCollection<TaskRecord>;
  jobs: () => ReadOnlyCollection;
  /** A job whole (its tasks are its workflow snapshot's, put back by the engine's reads): each task's form fields. */
  jobTasks: (jobId: string) => Promise<unknown>;
  /** Claims of manual tasks (`task_claims`); absent, every task reads unassigned. */
  claims?: () => ReadOnlyCollection;
  /** The engine's claim, release and take-over (each one unit of work with the job's history); absent, they are refused. */
  claimActions?: () => ClaimActions;
  /** The jobs' history (`job_history`), where finished manual tasks are recorded with who finished them. */
  history?: () => ReadOnlyCollection;
  /** This console's operator (the desktop user): whose "mine" is. */
  operator?: () => string;
}

interface JobFields {
  _id: string;
  name: string;
  description?: string;
  status: WorkItem['job']['status'];
}

const isJob = (doc: Record<string, unknown>): doc is Record<string, unknown> & JobFields => typeof doc._id === 'string' && typeof doc.name === 'string';
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
/** The outgoing variables a task's definition names: the fields of its form. */
function outgoingNames(tasks: unknown, taskId: string): string[] {
  const task = isRecord(tasks) ? tasks[taskId] : undefined;
  const variables = isRecord(task) ? task.variables : undefined;
  return isRecord(variables) && isRecord(variables.outgoing) ? Object.keys(variables.outgoing) : [];
}
const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

export function createWorklistService(deps: WorklistDeps) {
  const operator = () => deps.operator?.() ?? 'operator';
  const acts = (): ClaimActions => {
    if (!deps.claimActions) throw new ConsoleError('unavailable', 'claims of manual tasks are not kept by this console');
    return deps.claimActions();
  };

  async function waitingItems(workflow: string | undefined): Promise<WorkItem[]> {
    const waiting = await deps.tasks().find({ status: 'waiting', childJob: { $exists: false } }, { sort: { queuedAt: 1 } });
    const jobIds = [...new Set(waiting.map((t) => String(t.jobId)))];
    const jobFilter: Record<string, unknown> = { _id: { $in: jobIds }, status: { $in: ['running', 'paused'] } };
    if (workflow) jobFilter.name = workflow;
    const found = (await deps.jobs().find(jobFilter, { projection: { _id: 1, name: 1, description: 1, status: 1 } })).filter(isJob);
    const jobs = new Map(await Promise.all(found.map(async (j) => [j._id, { ...j, tasks: await deps.jobTasks(j._id) }] as const)));
    const held = deps.claims ? await claimsOf(deps.claims(), waiting.map((t) => String(t._id))) : new Map();
    const items: WorkItem[] = [];
    for (const task of waiting) {
      const job = jobs.get(String(task.jobId));
      if (!job) continue;
      const taskId = String(task.taskId);
      const claim = held.get(String(task._id));
      const incoming = isRecord(task.incoming) ? decodeVariables(task.incoming) : undefined;
      // The incoming values holding a secret by the one classifier: the work queue masks them until revealed.
      const secretIncoming = incoming ? secretVariables(incoming) : [];
      items.push({
        _id: String(task._id),
        jobId: job._id,
        taskId,
        iteration: Number(task.iteration ?? 0),
        name: String(task.name),
        app: String(task.app),
        ...(typeof task.summary === 'string' ? { summary: task.summary } : {}),
        queuedAt: Number(task.queuedAt),
        ...(incoming ? { incoming } : {}),
        ...(secretIncoming.length > 0 ? { secretIncoming } : {}),
        outgoing: outgoingNames(job.tasks, taskId),
        job: { name: job.name, ...(job.description ? { description: job.description } : {}), status: job.status },
        ...(claim ? { assignee: claim.assignee, claimedAt: claim.claimedAt } : {}),
      });
    }
    return items;
  }

  return {
    /** The service's task search over the same records (search.ts). */
    search: (query: ListQueryOf) => searchTasks(deps, query),
    /** One task by its `_id`, as the search shows it. */
    task: (id: string) => getTask(deps, id),
    async list(query: { workflow?: string; view?: 'all' | 'mine' | 'unassigned'; skip: number; limit: number }) {
      const all = await waitingItems(query.workflow);
      const me = operator();
      const mine = all.filter((i) => i.assignee === me);
      const unassigned = all.filter((i) => i.assignee === undefined);
      const items = query.view === 'mine' ? mine : query.view === 'unassigned' ? unassigned : all;
      return {
        results: items.slice(query.skip, query.skip + query.limit),
        total: items.length,
        skip: query.skip,
        limit: query.limit,
        operator: me,
        counts: { all: all.length, mine: mine.length, unassigned: unassigned.length },
      };
    },

    /** Manual tasks finished by an operator, newest first (the jobs' `task-finished` history entries). */
    async history(limit: number): Promise<FinishedItem[]> {
      if (!deps.history) return [];
      const entries = await deps.history().find({ event: 'task-finished' }, { sort: { timestamp: -1 }, limit });
      return entries.map((e) => ({
        jobId: String(e.jobId),
        taskId: String(e.taskId),
        ...(text(e.taskName) ? { name: text(e.taskName) } : {}),
        ...(text(e.summary) ? { summary: text(e.summary) } : {}),
        ...(text(e.workflow) ? { workflow: text(e.workflow) } : {}),
        state: String(e.state ?? 'success'),
        operator: String(e.operator ?? 'unknown'),
        finishedAt: Number(e.timestamp),
      }));
    },

    claim: (id: string) => acts().claim(id, operator()),
    release: (id: string) => acts().release(id, operator()),
    /** Takes the task over (or assigns it to `assignee`) from whoever claimed it; the job's history records who from. */
    takeOver: (id: string, assignee?: string) => acts().takeOver(id, operator(), assignee),
  };
}

export type WorklistService = ReturnType<typeof createWorklistService>;

type WorklistOperations = 'tasks.search' | 'tasks.get' | 'tasks.worklist' | 'tasks.claim' | 'tasks.release' | 'tasks.assign' | 'tasks.worklistHistory';

export function worklistHandlers(service: WorklistService): { [N in WorklistOperations]: Handler<N> } {
  return {
    'tasks.search': ({ query }) => service.search(query),
    'tasks.get': async ({ params }) => ({ message: `task ${params.taskId} found`, data: await service.task(params.taskId) }),
    'tasks.worklist': ({ query }) => service.list(query),
    'tasks.claim': async ({ params }) => {
      const claim = await service.claim(params.taskId);
      return { message: `task ${params.taskId} claimed by ${claim.assignee}`, data: claim };
    },
    'tasks.assign': async ({ params, body }) => {
      const claim = await service.takeOver(params.taskId, body.userId);
      return { message: `task ${params.taskId} assigned to ${claim.assignee}`, data: claim };
    },
    'tasks.release': async ({ params }) => {
      await service.release(params.taskId);
      return { message: `task ${params.taskId} released`, data: { _id: params.taskId } };
    },
    'tasks.worklistHistory': async ({ query }) => ({ results: await service.history(query.limit) }),
  };
}
