// The applications of one profile, each with a real lifecycle: RUNNING until the operator stops
// it (STOPPED, remembered in the profile's store across restarts), DEAD while what it needs is
// gone (the store does not answer). What an application serves stops with it: a hook per
// application (the task worker for WorkFlowEngine) and `require` for guarded entry points (a
// stopped OperationsManager refuses job starts). Each reports its own uptime, cpu since it
// started and counters of its work; the memory and pid are those of the console process it runs in.
import type { HealthItem, LoggerLevels } from '../contract/health';
import { DEFAULT_LOGGER_LEVELS } from '../profiles/runtime-config';
import { NO_CPU, NO_MEMORY, NO_PID, readUptime, type UptimeReadings } from '../health/process-readings';
import type { DesiredStates } from './desired-state';
import type { Logger } from 'pino';
import { builtInApplications, type ApplicationDefinition, type ApplicationState } from './registry';
import { ConsoleError, errorMessage } from '../errors';


/** What stopping or starting an application does to what it serves. */
export interface ApplicationHooks {
  start?(): Promise<void>;
  stop?(): Promise<void>;
  /** Why the application cannot work now (DEAD), or undefined when it can. */
  deadBecause?(): Promise<string | undefined>;
  /** The application's own figures (jobs started, worker running, ...). */
  figures?(): Record<string, number | string | boolean>;
}

/** A guarded call reached a stopped application: answered 503 naming it. */
export class ApplicationStoppedError extends ConsoleError {
  constructor(
    readonly application: string,
    what: string,
  ) {
    super('unavailable', `${application} is STOPPED, so ${what} is refused; start it from the Health page or with PUT /applications/${application}/start`, { application });
    this.name = 'ApplicationStoppedError';
  }
}

export class UnknownApplicationError extends Error {}

interface AppEntry {
  definition: ApplicationDefinition;
  running: boolean;
  startedAt: number;
  cpuAtStart: NodeJS.CpuUsage;
  stoppedAt?: number;
  counters: Record<string, number>;
  hooks: ApplicationHooks;
  /** The uptimes read of this application, for prevUptime. */
  uptimes?: UptimeReadings;
}

/** What the applications are made with. */
export interface ApplicationsDeps {
  /** The operator's started/stopped choices, kept in the store. */
  desired: DesiredStates;
  /** Where a choice that cannot be read or applied is logged. */
  log: Pick<Logger, 'error'>;
  definitions?: readonly ApplicationDefinition[];
  /** The console process's log levels, reported per application as the service does. */
  loggerLevels?: () => LoggerLevels;
}

export class Applications {
  private readonly entries = new Map<string, AppEntry>();
  private readonly desired: DesiredStates;
  private readonly log: Pick<Logger, 'error'>;
  private readonly loggerLevels: () => LoggerLevels;

  constructor(deps: ApplicationsDeps) {
    this.desired = deps.desired;
    this.log = deps.log;
    this.loggerLevels = deps.loggerLevels ?? (() => DEFAULT_LOGGER_LEVELS);
    for (const definition of deps.definitions ?? builtInApplications) {
      this.entries.set(definition.id, { definition, running: true, startedAt: Date.now(), cpuAtStart: process.cpuUsage(), counters: {}, hooks: {} });
    }
  }

  /**
   * Applies the operator's stored choices (applications they stopped stay stopped); waits for
   * them unless `background` (a MongoDB that is slow or down must not hold the opening).
   */
  async open(hooks: Record<string, ApplicationHooks> = {}, background = false): Promise<this> {
    for (const [id, h] of Object.entries(hooks)) {
      const entry = this.entries.get(id);
      if (entry) entry.hooks = h;
    }
    const applying = this.applyStored();
    if (!background) await applying;
    return this;
  }

  private async applyStored() {
    let stopped: Set<string>;
    try {
      stopped = await this.desired.stopped('application');
    } catch (error) {
      // The store does not answer: every application starts, and each reports DEAD naming the store.
      this.log.error({ err: error }, `applications: the operator's stopped applications cannot be read (${errorMessage(error)}); all start`);
      stopped = new Set();
    }
    for (const id of stopped) {
      const entry = this.entries.get(id);
      if (entry) await this.halt(entry).catch((error: Error) => this.log.error({ err: error }, `applications: ${id} could not be stopped as the operator asked: ${error.message}`));
    }
  }

  ids() {
    return [...this.entries.keys()];
  }

  has(id: string) {
    return this.entries.has(id);
  }

  private entry(id: string): AppEntry {
    const entry = this.entries.get(id);
    if (!entry) throw new UnknownApplicationError(`no application "${id}" (applications: ${this.ids().join(', ')})`);
    return entry;
  }

  isRunning(id: string) {
    return this.entry(id).running;
  }

  /** Throws ApplicationStoppedError when `id` is stopped; counts the call either way. */
  require(id: string, what: string) {
    const entry = this.entry(id);
    if (!entry.running) {
      this.count(id, 'refused');
      throw new ApplicationStoppedError(id, what);
    }
    this.count(id, 'served');
  }

  count(id: string, counter: string, by = 1) {
    const entry = this.entries.get(id);
    if (entry) entry.counters[counter] = (entry.counters[counter] ?? 0) + by;
  }

  private async halt(entry: AppEntry) {
    if (!entry.running) return;
    await entry.hooks.stop?.();
    entry.running = false;
    entry.stoppedAt = Date.now();
  }

  async stop(id: string) {
    const entry = this.entry(id);
    await this.desired.set('application', id, false);
    await this.halt(entry);
  }

  async start(id: string) {
    const entry = this.entry(id);
    await this.desired.set('application', id, true);
    if (entry.running) return;
    await entry.hooks.start?.();
    Object.assign(entry, { running: true, startedAt: Date.now(), cpuAtStart: process.cpuUsage(), stoppedAt: undefined });
  }

  async restart(id: string) {
    await this.stop(id);
    await this.start(id);
  }

  /** Why each application was DEAD at the last look (items()), for `snapshot`. */
  private readonly lastDead = new Map<string, string | undefined>();

  /** Health items in the reference shape, measured now (asks each application whether it can work). */
  async items(now = Date.now()): Promise<HealthItem[]> {
    await Promise.all([...this.entries.values()].map(async (entry) => this.lastDead.set(entry.definition.id, entry.running ? await entry.hooks.deadBecause?.() : undefined)));
    return this.snapshot(now);
  }

  /** Health items now, with the DEAD reasons found at the last `items()` (no store round trip). */
  snapshot(now = Date.now()): HealthItem[] {
    const memory = process.memoryUsage();
    return [...this.entries.values()].map((entry) => {
      const { definition: app } = entry;
      const dead = entry.running ? this.lastDead.get(app.id) : undefined;
      const state: ApplicationState = !entry.running ? 'STOPPED' : dead ? 'DEAD' : 'RUNNING';
      const cpu = process.cpuUsage(entry.cpuAtStart);
      const uptime = entry.running ? (now - entry.startedAt) / 1000 : 0;
      entry.uptimes = readUptime(entry.uptimes, entry.running ? entry.startedAt : undefined, uptime);
      return {
        id: app.id,
        package_id: app.package_id,
        version: app.version,
        type: 'Application' as const,
        description: app.description,
        routePrefix: app.routePrefix,
        state,
        ...(dead ? { detail: dead } : !entry.running ? { detail: `stopped at ${new Date(entry.stoppedAt!).toISOString()}` } : {}),
        uptime,
        prevUptime: entry.uptimes.previous,
        // A stopped application does not run: no memory, no CPU time, no process (0s, not nulls,
        // as the service's clients require numbers; see core/health/process-readings.ts).
        memoryUsage: entry.running ? { rss: memory.rss, heapTotal: memory.heapTotal, heapUsed: memory.heapUsed, external: memory.external, arrayBuffers: memory.arrayBuffers } : { ...NO_MEMORY },
        cpuUsage: entry.running ? { user: cpu.user, system: cpu.system } : { ...NO_CPU },
        pid: entry.running ? process.pid : NO_PID,
        logger: this.loggerLevels(),
        timestamp: now,
        figures: { ...entry.counters, ...(entry.hooks.figures?.() ?? {}) },
      };
    });
  }

  async item(id: string): Promise<HealthItem> {
    this.entry(id);
    return (await this.items()).find((item) => item.id === id)!;
  }
}
