// Handlers of the job operations: they read the active profile's engine at each call.
import type { Handlers } from '../../dispatch/dispatch';
import type { Engine } from '../index';
import type { JobDoc } from './types';
import { jobView } from './view';
import { manualController } from './manual-controller';
import { listJobs, matchingJobIds } from './list';
import { ConsoleError } from '../../errors';
import { BULK_MAX, type JobsFilter } from '../../contract/jobs';
import { searchFilter } from './search';
import { bulkJobAction } from './bulk';
import { largeDataOf, readLargeData } from '../../store/large-data/bucket';
import { secretVariables } from './secret-variables';

type JobOperations = 'jobs.largeData' | 'jobs.bulkCancel' | 'jobs.bulkPause' | 'jobs.bulkResume' | 'jobs.bulkRetry' | 'jobs.start' | 'jobs.list' | 'jobs.get' | 'jobs.cancel' | 'jobs.pause' | 'jobs.resume' | 'jobs.retryTask' | 'jobs.finishTask' | 'jobs.manualController' | 'jobs.reveal';

export interface JobsDeps {
  /** The active profile's workflow engine. */
  engine(): Engine;
  /** Throws when job starts are refused now (a stopped Operations Manager: 503 naming it). */
  guardStart?(): void;
  /** The names of the stored workflows (the jobs list counts jobs per workflow). */
  workflowNames(): Promise<string[]>;
  /** Refuses a start before the job exists (a workflow whose parts are missing: 409). */
  startCheck?(workflow: string): Promise<void>;
  /** The operator's name, recorded as the job's initiator (never the caller's user agent). */
  operator?(): string;
  /** Writes a line of the console log (an operator revealing a job's secret variables). */
  log?(fields: Record<string, unknown>, message: string): void;
}

export type JobsService = JobsDeps;

export function createJobsService(deps: JobsDeps): JobsService {
  return deps;
}

const answer = (message: string, job: JobDoc) => ({ message, data: { _id: job._id, status: job.status } });

export function jobsHandlers(service: JobsService): Pick<Handlers, JobOperations> {
  const runner = () => service.engine().runner;
  /** The jobs a bulk action names: its ids, or every job its filter matches (as the Jobs list filters them). */
  const bulkIds = async (body: { jobIds?: string[]; filter?: JobsFilter }): Promise<string[]> => {
    if (body.jobIds) return body.jobIds;
    const r = runner();
    const ids = await matchingJobIds({ jobs: r.jobs, tasks: r.tasks }, body.filter ?? {});
    if (ids.length > BULK_MAX) throw new ConsoleError('bad_input', `the filter matches ${ids.length} jobs, more than the ${BULK_MAX} one bulk action takes: narrow it (status, workflow, from, to, q)`);
    return ids;
  };
  return {
    'jobs.start': async ({ body }) => {
      // Operations Manager serves job starts: stopped, it refuses them (503 naming it).
      service.guardStart?.();
      if (body.workflow) await service.startCheck?.(body.workflow);
      const job = await runner().start(body.workflow, { ...body.options, user: service.operator?.() ?? 'operator' });
      service.engine().worker.poke();
      return answer(`job of workflow "${job.name}" started`, job);
    },
    'jobs.list': async ({ query }) => {
      const r = runner();
      const search = searchFilter(query);
      const page = await listJobs({ jobs: r.jobs, tasks: r.tasks, workflowNames: service.workflowNames }, { ...query, ...(search ? { search } : {}) });
      // The service's search API shape: the page in data, paging (and the console's counts) in metadata.
      const metadata = { total: page.total, skip: query.skip, limit: query.limit, ...(page.counts ? { counts: page.counts } : {}) };
      return { message: `Successfully retrieved ${page.results.length} of ${page.total} jobs`, data: page.results, metadata };
    },
    'jobs.get': async ({ params }) => {
      const r = runner();
      const job = await r.requireJob(params.id);
      const view = jobView(job, await r.records(job._id), await r.childIds(job), await r.history(job._id));
      const secret = secretVariables(view.variables);
      const largeData = await largeDataOf(service.engine().options.store, job._id);
      return { data: { ...view, ...(secret.length > 0 ? { secretVariables: secret } : {}), ...(largeData.length ? { largeData } : {}) } as never };
    },
    'jobs.reveal': async ({ params, body }) => {
      const job = await runner().requireJob(params.id);
      const secret = secretVariables(job.variables);
      const other = body.variables.filter((name) => !secret.includes(name));
      if (other.length > 0) throw new ConsoleError('bad_input', `body.variables: ${other.map((n) => `"${n}"`).join(', ')} ${other.length === 1 ? 'is not a secret variable' : 'are not secret variables'} of job ${job._id} (its secret variables: ${secret.join(', ') || 'none'})`);
      const operator = service.operator?.() ?? 'operator';
      service.log?.({ jobId: job._id, variables: body.variables, operator }, `${operator} revealed the secret variables ${body.variables.join(', ')} of job ${job._id} on the job page`);
      return { message: `revealed ${body.variables.length} secret variable(s) of job ${job._id}`, data: { _id: job._id, variables: body.variables } };
    },
    'jobs.bulkCancel': async ({ body }) => bulkJobAction(runner(), 'cancel', await bulkIds(body)),
    'jobs.bulkPause': async ({ body }) => bulkJobAction(runner(), 'pause', await bulkIds(body)),
    'jobs.bulkResume': async ({ body }) => {
      const answer = await bulkJobAction(runner(), 'resume', await bulkIds(body));
      service.engine().worker.poke();
      return answer;
    },
    'jobs.bulkRetry': async ({ body }) => {
      const answer = await bulkJobAction(runner(), 'retry', await bulkIds(body));
      service.engine().worker.poke();
      return answer;
    },
    'jobs.largeData': async ({ params }) => {
      const found = await readLargeData(service.engine().options.store, params.id);
      if (!found) throw new ConsoleError('not_found', `no large data ${params.id} in job_data: its job was deleted or archived, or the id is another's`, { id: params.id });
      return found.value;
    },
    'jobs.cancel': async ({ params }) => answer('job canceled', await runner().cancel(params.id)),
    'jobs.pause': async ({ params }) => answer('job paused', await runner().pause(params.id)),
    'jobs.resume': async ({ params }) => {
      const job = await runner().resume(params.id);
      service.engine().worker.poke();
      return answer('job resumed', job);
    },
    'jobs.retryTask': async ({ params, body }) => {
      const changed = body.incoming !== undefined || (body.variables !== undefined && Object.keys(body.variables).length > 0);
      const operator = service.operator?.() ?? 'operator';
      const job = await runner().retryTask(params.id, params.taskId, changed ? { changes: body, operator } : {});
      service.engine().worker.poke();
      return answer(`task ${params.taskId} queued again`, job);
    },
    'jobs.manualController': async ({ params }) => {
      const r = runner();
      const job = await r.requireJob(params.id);
      return { message: `Successfully retrieved the controller of task ${params.taskId}`, data: manualController(job, await r.records(job._id), params.taskId) };
    },
    'jobs.finishTask': async ({ params, body }) => {
      // Who finishes it is recorded in the job's history with the finish (one unit of work).
      const job = await runner().finishTask(params.id, params.taskId, body.values, { state: body.state, operator: service.operator?.() ?? 'operator' });
      service.engine().worker.poke();
      return answer(`task ${params.taskId} finished`, job);
    },
  };
}
