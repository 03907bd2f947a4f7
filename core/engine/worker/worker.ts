// The task worker: claims queued tasks, runs them through the job runner while
// renewing their lease, and, with its sweeper, re-queues tasks whose lease expired
// (a server that died) and advances jobs whose last task ended without the job
// being advanced, and finishes or fails jobs a server left half-started
// (half-started.ts). An idle worker polls, and is woken at once by a change stream
// where the store has one (wake.ts), and at the due time of the earliest timer.
// A task waiting on a timer holds no slot here: its record waits in the queue
// (jobs/timers.ts). Stopping hands running tasks back to the queue.
import { randomBytes } from 'node:crypto';
import { PauseLog } from './pause-log';
import { pino, type Logger } from 'pino';
import type { Handoff, Held } from '../jobs/runner';
import type { Claim, TaskRecord } from '../queue/queue';
import { HalfStartedJobs } from './half-started';
import { untilDue, watchQueuedTasks, type QueueWatch } from './wake';
import { claimRoom, DEFAULT_CONCURRENCY, DEFAULT_LOCAL_CONCURRENCY, isLocal, type WorkerOptions, type WorkerStats } from './options';

export type { WorkerOptions, WorkerStats } from './options';

export class TaskWorker {
  private readonly options: Required<Omit<WorkerOptions, 'onError' | 'log'>> & Pick<WorkerOptions, 'onError'>;
  private readonly log: Logger;
  private active = false;
  private loop?: Promise<void>;
  private sweeper?: NodeJS.Timeout;
  private wake?: () => void;
  private watch?: QueueWatch;
  /** The store refused a change stream once: this worker polls from then on. */
  private watchRefused = false;
  private readonly halfStarted: HalfStartedJobs;
  private readonly running = new Map<string, { claim: Claim; done: Promise<void>; abort: AbortController }>();
  /** Of the tasks running, those the console runs itself (built-ins): CPU work in this process. */
  private localRunning = 0;
  /** Tasks handed to this worker by eager dispatch, claimed but not yet running: they hold a slot. */
  private handedOff = 0;
  /**
   * The claim loop waits for a slot to free (not for work): a task leaving wakes it then. An idle
   * loop is not woken by a task ending: the next tasks its advance queued and did not hand to this
   * worker poke it (runner.onQueued), and a claim with nothing queued is a wasted store call
   * (7-14 ms on the wire test server under load).
   */
  private waitingForRoom = false;
  workerId = '';
  readonly stats: WorkerStats = { completed: 0, lostLeases: 0 };

  constructor(options: WorkerOptions) {
    const leaseMs = options.leaseMs ?? 30_000;
    this.options = {
      concurrency: DEFAULT_CONCURRENCY,
      localConcurrency: Math.min(options.concurrency ?? DEFAULT_CONCURRENCY, DEFAULT_LOCAL_CONCURRENCY),
      renewMs: Math.max(10, Math.floor(leaseMs / 3)),
      idleMs: 200,
      firstIdleMs: 5,
      handoffsPerTurn: 16,
      sweepMs: Math.max(50, Math.floor(leaseMs / 2)),
      ...options,
      leaseMs,
    };
    this.log = (options.log ?? pino({ level: 'silent' })).child({ component: 'task-worker' });
    this.halfStarted = new HalfStartedJobs(options.runner, { leaseMs, serverId: options.serverId, log: this.log });
  }

  /** Whether a change stream wakes this worker (false: it polls alone). */
  get woken() {
    return this.watch?.live ?? false;
  }

  /** An error of the loop: logged with what the worker was doing and the ids it concerns. */
  private failed(doing: string, error: unknown, ids: Record<string, unknown> = {}) {
    this.log.error({ workerId: this.workerId, ...ids, err: error }, `task worker: ${doing} failed: ${error instanceof Error ? error.message : String(error)}`);
    this.options.onError?.(error);
  }

  get isRunning() {
    return this.active;
  }

  /** No more tasks are taken: all slots busy, or enough built-ins (handed over, not yet running: counted as such) run. */
  private get full() {
    return this.busy >= this.options.concurrency || this.localRunning + this.handedOff >= this.options.localConcurrency;
  }

  /** Tasks in this worker's hands now (running, or handed to it and about to run). */
  get busy() {
    return this.running.size + this.handedOff;
  }

  start(): void {
    if (this.active) return;
    this.active = true;
    this.workerId = `${this.options.serverId}:${randomBytes(4).toString('hex')}`;
    this.log.info({ workerId: this.workerId, concurrency: this.options.concurrency, leaseMs: this.options.leaseMs }, 'task worker started');
    this.options.runner.link({ dispatchAtStart: () => this.startHandoff(), onQueued: () => this.poke(), ranInWrite: () => void this.stats.completed++ });
    this.loop = this.claimLoop();
    // A store that refused a change stream once is asked no more: this worker polls.
    if (!this.watchRefused) this.openWatch();
    void this.sweep();
    this.sweeper = setInterval(() => void this.sweep(), this.options.sweepMs);
  }

  private openWatch() {
    this.watch = watchQueuedTasks(this.options.runner.store, () => this.poke(), this.log, () => (this.watchRefused = true));
  }

  /** Stops claiming, hands the tasks still running back to the queue and waits for the loop to end. */
  async stop(): Promise<void> {
    if (!this.active) return;
    this.active = false;
    this.options.runner.link(undefined);
    clearInterval(this.sweeper);
    const watch = this.watch;
    this.watch = undefined;
    await watch?.close().catch((error: Error) => this.log.warn({ workerId: this.workerId, err: error }, `closing the change stream on tasks failed: ${error.message}`));
    this.wake?.();
    await this.loop;
    const stopping = [...this.running.values()];
    for (const task of stopping) task.abort.abort(new Error('the task worker is stopping'));
    // A task that cannot be handed back is re-queued by a sweeper once its lease expires.
    await Promise.all(stopping.map(({ claim }) => this.release(claim)));
    await Promise.all(stopping.map(({ done }) => done));
    this.log.info({ workerId: this.workerId, handedBack: stopping.map((t) => t.claim._id) }, 'task worker stopped');
  }

  private async release(claim: Claim): Promise<void> {
    try {
      await this.options.runner.queue.release(claim);
      this.log.info({ workerId: this.workerId, recordId: claim._id }, 'task handed back to the queue');
    } catch (error) {
      this.failed('handing a task back (it is re-queued when its lease expires)', error, { recordId: claim._id });
    }
  }

  /** Wakes an idle worker (a task was just queued by this server). */
  poke(): void {
    this.wake?.();
  }

  private async claimLoop() {
    const { runner, leaseMs, idleMs, firstIdleMs } = this.options;
    // An idle worker polls soon, then less often: work queued by another process is picked up promptly.
    let wait = Math.min(firstIdleMs, idleMs);
    while (this.active) {
      if (this.full) {
        // Woken when a task leaves this worker's hands (or the worker stops).
        this.waitingForRoom = true;
        await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = undefined;
        this.waitingForRoom = false;
        continue;
      }
      if (this.storeRefusesWrites()) {
        // Every claim would fail: the worker waits for the store to take writes again (it probes by itself).
        await this.idle(idleMs);
        continue;
      }
      // As many as this worker has room for, in one store call (one write on the embedded store).
      const room = claimRoom(this.options, this.busy, this.localRunning + this.handedOff);
      const records = await runner.queue.claimMany(this.workerId, leaseMs, room).catch((error: unknown): TaskRecord[] => (this.failed('claiming tasks', error), []));
      if (!this.active) {
        await Promise.all(records.map((record) => this.release({ _id: record._id, workerId: this.workerId, attempt: record.attempt })));
        break;
      }
      for (const record of records) {
        this.log.debug({ workerId: this.workerId, recordId: record._id, jobId: record.jobId, taskId: record.taskId, attempt: record.attempt }, 'task claimed');
        this.run(record);
      }
      if (records.length) {
        wait = Math.min(firstIdleMs, idleMs);
        continue;
      }
      const delay = await this.untilDue(wait);
      wait = Math.min(idleMs, wait * 2);
      await this.idle(delay);
    }
  }

  /** How long an idle worker waits: `ms`, or less when a timer comes due sooner (wake.ts). */
  private untilDue(ms: number): Promise<number> {
    return untilDue(this.options.runner.queue, ms).catch((error: unknown) => (this.failed('reading the next due time', error), ms));
  }

  /** Waits `ms`, or until woken (a task queued, the worker stopping). */
  private async idle(ms: number) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wake = undefined;
  }

  /**
   * Runs a task handed to this worker on the next turn of the event loop: the embedded store
   * answers synchronously, so a job looping with no delay (a revert polling loop) would otherwise
   * run task after task in microtasks and starve timers, lease renewals and HTTP requests.
   */
  private runHanded(record: TaskRecord, held: Held, turn: number) {
    setImmediate(() => {
      this.handedOff--;
      if (this.active) return this.run(record, held, turn);
      // Stopped meanwhile: the task goes back to the queue.
      void this.release({ _id: record._id, workerId: this.workerId, attempt: record.attempt });
    });
  }

  private readonly pause = new PauseLog(); // Paused while the store takes no writes: said once per cause and minute.

  private storeRefusesWrites(): boolean {
    const safety = this.options.runner.store.safety?.();
    const reason = safety && !safety.writable ? (safety.reason ?? safety.state) : undefined;
    const said = this.pause.update(reason && `${safety?.state}: ${reason}`);
    if (said === 'paused') this.log.warn({ workerId: this.workerId, reason }, `task worker paused: the store takes no writes (${reason})`);
    if (said === 'resumed') this.log.info({ workerId: this.workerId }, 'task worker resumed: the store takes writes again');
    return reason !== undefined;
  }

  /**
   * Eager dispatch for the task now ending: one next task of its job, while this worker runs.
   * The next task takes over the ending task's slot (counted in `handedOff` until it runs), so
   * the claim loop does not fill that slot too: tasks in hand stay within `concurrency`.
   */
  private handoff(turn: number): Handoff {
    let taken = false;
    return {
      take: () => {
        // The job had its turn: its next task is queued behind those waiting (claimed oldest first).
        if (taken || !this.active || turn >= this.options.handoffsPerTurn) return undefined;
        taken = true;
        return { workerId: this.workerId, leaseUntil: Date.now() + this.options.leaseMs };
      },
      run: (record, held) => {
        this.handedOff++;
        this.runHanded(record, held, turn + 1);
      },
    };
  }

  /**
   * Eager dispatch at a job's start (this process starting it): its first task is claimed for this
   * worker in the write that queues it, when the worker has a free slot. The slot is reserved at
   * `take` (counted in `handedOff`) and freed by `run` or `drop`.
   */
  private startHandoff(): Handoff | undefined {
    const { leaseMs } = this.options;
    if (!this.active || this.full) return undefined;
    let state: 'free' | 'taken' | 'done' = 'free';
    return {
      take: () => {
        if (state !== 'free' || !this.active || this.full) return undefined;
        state = 'taken';
        this.handedOff++;
        return { workerId: this.workerId, leaseUntil: Date.now() + leaseMs };
      },
      run: (record, held) => {
        if (state !== 'taken') return;
        state = 'done';
        this.runHanded(record, held, 0);
      },
      drop: () => {
        if (state !== 'taken') return;
        state = 'done';
        this.handedOff--;
        if (this.waitingForRoom) this.wake?.();
      },
    };
  }

  /** Runs a claimed task; `turn`: the tasks of its job this slot ran before it by hand-off. */
  private run(record: TaskRecord, held?: Held, turn = 0) {
    const { runner, leaseMs, renewMs } = this.options;
    const claim: Claim = { _id: record._id, workerId: this.workerId, attempt: record.attempt };
    const abort = new AbortController();
    const renewal = setInterval(() => {
      runner.queue.renew(claim, leaseMs).then(
        (held) => {
          if (!held) {
            // Canceled, or swept as expired: whatever it ends with would not be recorded.
            this.stats.lostLeases++;
            this.log.warn({ workerId: this.workerId, recordId: record._id, jobId: record.jobId, taskId: record.taskId }, 'lease lost: the task was canceled or swept; its end will not be recorded');
            clearInterval(renewal);
            abort.abort(new Error('the task is no longer this worker\'s (canceled or lease expired)'));
          }
        },
        (error) => this.failed('renewing a lease', error, { recordId: record._id, jobId: record.jobId, taskId: record.taskId }),
      );
    }, renewMs);
    const local = isLocal(record);
    if (local) this.localRunning++;
    const done = this.settle(record, runner.execute(record, abort.signal, { ...held, handoff: this.handoff(turn) }), renewal, local);
    this.running.set(record._id, { claim, done, abort });
  }

  /** A task's run ended (one async step, not a chain of three): counted or its failure said, its slot freed. */
  private async settle(record: TaskRecord, run: Promise<boolean>, renewal: NodeJS.Timeout, local: boolean): Promise<void> {
    try {
      if (await run) this.stats.completed++;
    } catch (error) {
      this.failed('running a task', error, { recordId: record._id, jobId: record.jobId, taskId: record.taskId });
    } finally {
      clearInterval(renewal);
      this.running.delete(record._id);
      if (local) this.localRunning--;
      if (this.waitingForRoom) this.wake?.();
    }
  }

  private sweeping = false;

  private async sweep() {
    // A slow pass (a store that answers slowly) is not run twice at once.
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      await this.sweepOnce();
    } finally {
      this.sweeping = false;
    }
  }

  private async sweepOnce() {
    const { runner } = this.options;
    if (this.storeRefusesWrites()) return;
    try {
      const requeued = await runner.queue.sweep();
      if (requeued > 0) this.log.warn({ workerId: this.workerId, requeued }, `${requeued} task(s) of a server that stopped answering (lease expired) queued again`);
      // A server that died between a task's end and advancing its job.
      for (const record of await runner.queue.unadvanced(Date.now() - this.options.leaseMs)) {
        this.log.info({ workerId: this.workerId, recordId: record._id, jobId: record.jobId, taskId: record.taskId }, 'advancing a job left behind after its task ended');
        await runner.afterEnd(record._id);
      }
    } catch (error) {
      this.failed('sweeping expired leases', error);
    }
    // A change stream that failed while the database was down is opened again.
    if (this.active && this.watch?.retry) {
      await this.watch.close().catch((error: Error) => this.log.debug({ err: error }, `closing a failed change stream: ${error.message}`));
      if (this.active) this.openWatch();
    }
    try {
      // A server that died in the middle of starting (or ending) a job, where the store has no transactions.
      await this.halfStarted.pass();
    } catch (error) {
      this.failed('recovering half-started jobs', error);
    }
  }
}

