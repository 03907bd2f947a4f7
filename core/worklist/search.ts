// GET /operations-manager/tasks: the task records as the service's Operations Manager searches its Task
// collection, `{ message, data, metadata: { skip, limit, total } }`. Each task as the service shows it:
// a manual task waiting for an operator is `running` (the vendor's operator guide lists the approvals
// waiting by `equals[type]=manual&equals[status]=running`), and `job` names its job and task
// (`{ _id, name, task }`), with which the task is finished at /operations-manager/jobs/:id/tasks/:taskId/finish.
// Exact filters are read by the store (the collection holds every task of every job); contains,
// starts-with, the sort and the page then apply to what it found.
import type { ReadOnlyCollection } from '../store/port';
import type { TaskRecord } from '../engine/queue/queue';
import { taskRun } from '../engine/jobs/view';
import { projectionOf, queryPage, type ListQueryOf } from '../values/list-query';
import { ConsoleError } from '../errors';

type Obj = Record<string, unknown>;

export interface TaskSearchDeps {
  tasks: () => ReadOnlyCollection<TaskRecord>;
  jobs: () => ReadOnlyCollection;
}

/** The service's status of a task record: the console's `waiting` (for an operator) is its `running`. */
const serviceStatus = (status: unknown) => (status === 'waiting' ? 'running' : status);

/** The exact filters of a query (`equals[field]=v`, `equals=v&equalsField=field`) as a store filter on the records. */
function storeFilter(query: ListQueryOf): Obj {
  const equal: [string, string][] = [];
  for (const [key, value] of Object.entries(query)) {
    const bracket = /^equals\[(.+)\]$/.exec(key);
    if (bracket?.[1] && typeof value === 'string') equal.push([bracket[1], value]);
  }
  if (query.equals !== undefined) equal.push([query.equalsField ?? 'name', query.equals]);
  const filter: Obj = {};
  for (const [field, value] of equal) {
    if (field === 'status') filter.status = value === 'running' ? { $in: ['running', 'waiting'] } : value;
    else if (field === 'job._id') filter.jobId = value;
    else if (field === 'job.task') filter.taskId = value;
    // Other fields (a number kept as one, say) are matched on the documents as the service answers them.
    else if (!field.startsWith('job.')) filter[field] = value;
  }
  return filter;
}

type ShownTask = Obj & { job: { _id: string; task: string } };

/** A task record as the service shows it, naming its job and task. */
const show = (record: TaskRecord): ShownTask => ({ ...taskRun(record), status: serviceStatus(record.status), job: { _id: record.jobId, task: record.taskId } });

/** The task with its job's name (its workflow) beside the job's id. */
const withJobName = (task: ShownTask, name: string | undefined) => ({ ...task, job: { _id: task.job._id, name, task: task.job.task } });

/** One task record by its `_id`, as the search shows it (404 naming it when none). */
export async function getTask(deps: TaskSearchDeps, id: string): Promise<Obj> {
  const record = await deps.tasks().findOne({ _id: id });
  if (!record) throw new ConsoleError('not_found', `no task has the _id "${id}"`);
  const job = await deps.jobs().findOne({ _id: record.jobId }, { projection: { name: 1 } });
  return withJobName(show(record), job ? String(job.name) : undefined);
}

export async function searchTasks(deps: TaskSearchDeps, query: ListQueryOf): Promise<{ message: string; data: Obj[]; metadata: { skip: number; limit: number; total: number } }> {
  const project = projectionOf(query);
  const filter = storeFilter(query);
  // Only contains and starts-with need the documents in hand; otherwise the store sorts and pages, so a
  // search over every task of every job reads one page, not the collection.
  const inHand = [query.contains, query['starts-with'], query.startsWith].some((v) => v !== undefined) || Object.keys(query).some((key) => /^(contains|starts-with)\[/.test(key));
  let items: ShownTask[];
  let total: number;
  if (inHand) {
    ({ items, total } = queryPage((await deps.tasks().find(filter)).map(show), query));
  } else {
    const sort = { [query.sort ?? 'name']: query.order ?? 1 };
    items = (await deps.tasks().find(filter, { sort, skip: query.skip, ...(query.limit ? { limit: query.limit } : {}) })).map(show);
    total = await deps.tasks().count(filter);
  }
  // The page's jobs named (their workflow), read once each.
  const jobIds = [...new Set(items.map((task) => task.job._id))];
  const names = new Map((await deps.jobs().find({ _id: { $in: jobIds } }, { projection: { name: 1 } })).map((job) => [String(job._id), String(job.name)]));
  const data = items.map((task) => project(withJobName(task, names.get(task.job._id))));
  return { message: `${total} tasks found`, data, metadata: { skip: query.skip, limit: query.limit, total } };
}
