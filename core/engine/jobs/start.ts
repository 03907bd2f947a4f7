// Starting a job: the workflow read, the variables checked against its inputSchema,
// then the job, its workflow_start record and its first tasks written, as one
// transaction where the store has them. The first task may be claimed for this
// process's task worker in that write (eager dispatch at start).
import { ObjectId } from 'bson';
import type { Logger } from 'pino';
import { ConsoleError } from '../../errors';
import { isDuplicateKey } from '../../store/errors';
import type { Store } from '../../store/port';
import { isAtomic, unitOfWork } from '../../store/unit-of-work';
import { encodeVariables, rejectMarker } from '../../values/undefined-codec';
import { jobStartVariables } from '../workflow/job-variables';
import type { TaskRecord } from '../queue/queue';
import type { ChildStart } from './children';
import type { JobExecutor } from './executor';
import type { Handoff, Held, HeldState } from './held';
import { checkVariables } from './input-schema';
import type { JobReads } from './reads';
import { jobErrorText } from './job-error';
import type { JobDoc, TaskDefinition } from './types';
import { sayStatus } from './status-log';

export interface StartOptions {
  description?: string;
  variables?: Record<string, unknown>;
  user?: string;
  parent?: { job: string; task: string; record: string };
  /** A child job's parent's `ancestors` (its root first); the child's are these and its own id. */
  parentAncestors?: string[];
  id?: string;
}

export interface WorkflowSource {
  name: string;
  description?: string;
  tasks: Record<string, TaskDefinition>;
  transitions?: JobDoc['transitions'];
  inputSchema?: Record<string, unknown>;
  errorHandler?: unknown;
}

// Job ids are ObjectIds, as the service's are: time first, so a new job's index entries go at the end of each index.
const newId = () => new ObjectId().toHexString();

/** The job document of a start, or the refusal (400) naming what does not fit. */
export function newJob(workflow: WorkflowSource, options: StartOptions, now: number): JobDoc {
  const variables = options.variables ?? {};
  try {
    rejectMarker(variables, 'options.variables');
  } catch (error) {
    throw new ConsoleError('bad_input', error instanceof Error ? error.message : String(error));
  }
  const id = options.id ?? newId();
  const user = options.user ?? 'console';
  // The service's own job variables (_id, initiator) are there before the inputSchema is checked,
  // and kept with the job's variables as the service keeps them (GET /operations-manager/jobs/:id answers them).
  const started = jobStartVariables(variables, { id, initiator: user });
  const problems = checkVariables(started, workflow.inputSchema);
  if (problems.length) {
    throw new ConsoleError('bad_input', `the variables do not fit the inputSchema of workflow "${workflow.name}": ${problems.join('; ')}`, { problems });
  }
  return {
    _id: id,
    name: workflow.name,
    description: options.description ?? workflow.description ?? '',
    status: 'running',
    variables: encodeVariables(started),
    metrics: { start_time: now, user },
    children: [],
    tasks: workflow.tasks,
    transitions: workflow.transitions ?? {},
    ...(workflow.errorHandler ? { errorHandler: workflow.errorHandler } : {}),
    last_updated: now,
    // The service's lineage: every job's ancestors start with its root and end with itself (a root's is [itself]).
    ancestors: [...(options.parent ? (options.parentAncestors ?? [options.parent.job]) : []), id],
    ...(options.parent ? { parent: options.parent } : {}),
  };
}

export interface StarterParts {
  store: Store;
  reads: JobReads;
  /** The executor: decides the job's start and carries it out. */
  executor: Pick<JobExecutor, 'run' | 'started'>;
  held: HeldState;
  log: Logger;
  /** The workflow by name: a promise, or the workflow at once when it is kept (recent.ts). */
  loadWorkflow: (name: string) => Promise<WorkflowSource | null> | WorkflowSource | null;
}

export class JobStarter {
  /** Set by this process's task worker while it runs: eager dispatch of a job's first task at its start. */
  dispatchAtStart?: () => Handoff | undefined;

  constructor(private readonly parts: StarterParts) {}

  async start(workflowName: string, options: StartOptions = {}): Promise<JobDoc> {
    if (!workflowName) throw new ConsoleError('bad_input', 'workflow: the name of the workflow to start is required');
    const loading = this.parts.loadWorkflow(workflowName);
    const workflow = loading instanceof Promise ? await loading : loading;
    if (!workflow) throw new ConsoleError('not_found', `no workflow named "${workflowName}"`);
    const { store, reads, executor, held } = this.parts;
    const parentJob = options.parent ? await reads.job(options.parent.job) : undefined;
    const job = newJob(workflow, { ...options, ...(parentJob?.ancestors ? { parentAncestors: parentJob.ancestors } : {}) }, Date.now());
    // The answer is the job as it started, as the service's: its tasks may have run in this write already (in-write.ts).
    const asStarted: JobDoc = { ...job, metrics: { ...job.metrics } };
    // The job, its first record and its advance are one transaction where the store has them.
    const handoff = this.dispatchAtStart?.();
    const claimed: { record: TaskRecord; held: Held }[] = [];
    let started: boolean;
    let stored: ReturnType<typeof reads.snapshots.slim> | undefined;
    // Where the unit of work is one transaction, the job is written once, after its first advance, as it is
    // then (its tasks may have run in this write: in-write.ts); elsewhere first, as a half-started job's recovery needs.
    const atOnce = isAtomic(store);
    const writeJob = async () => {
      // The job is stored whole, its workflow's tasks and transitions in it, as the service's are (snapshots.ts).
      stored = reads.snapshots.slim(job);
      if (stored.write) await stored.write();
      await reads.jobs.insertOne(stored.doc);
      reads.remember(job);
    };
    try {
      started = await unitOfWork(store, async () => {
        if (atOnce && options.id && (await reads.job(options.id))) return false; // started already, by an earlier attempt
        try {
          if (!atOnce) await writeJob();
        } catch (error) {
          if (!(options.id && isDuplicateKey(error))) throw error;
          return false; // started already, by an earlier attempt
        }
        if (options.parent) await this.linkChild(options.parent.job, job._id);
        const given = handoff && { ...handoff, claimed };
        // The job and its records are the ones just written: no re-read.
        if (atOnce) await executor.started(job, given, writeJob);
        else await executor.run(job, [], { kind: 'started' }, given);
        held.stampAll(job._id, claimed);
        return true;
      });
    } catch (error) {
      claimed.length = 0;
      // Another process started the job of this id meanwhile: nothing of this start was written.
      if (!(atOnce && options.id && isDuplicateKey(error))) throw error;
      started = false;
    } finally {
      if (claimed.length === 0) handoff?.drop?.();
    }
    if (started && stored) reads.snapshots.stored(stored.id, stored.snapshot);
    for (const { record, held: given } of claimed) handoff?.run(record, given);
    if (!started) return reads.requireJob(job._id); // an earlier attempt's job
    this.parts.log.info({ jobId: job._id, workflow: job.name, status: 'running', ...(options.parent ? { parentJobId: options.parent.job } : {}) }, `job of workflow "${job.name}" started`);
    // Ended in its start's write (its tasks run in it: in-write.ts), said now, after its start.
    if (atOnce && job.status !== 'running') sayStatus(this.parts.log, job, job.status, job.status === 'error' ? { from: 'running', error: jobErrorText(job) ?? '' } : {});
    return asStarted;
  }

  /** A child job of a childJob task, unless one with its id exists already (a retry after a crash). */
  async startChild(child: ChildStart): Promise<void> {
    if (await this.parts.reads.job(child.id)) return;
    const { workflow, ...options } = child;
    await this.start(workflow, options);
  }

  private async linkChild(parentId: string, childId: string) {
    const parent = await this.parts.reads.job(parentId);
    if (parent && !parent.children?.includes(childId)) {
      await this.parts.reads.jobs.updateOne({ _id: parentId }, { $set: { children: [...(parent.children ?? []), childId] } });
    }
  }
}
