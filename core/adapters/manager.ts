// The adapters of the active profile, each in its own process: start, stop, restart, method
// calls with a timeout, health as each process answers it, and crash handling. A crashed adapter
// is DEAD, its crash is kept for the operator, and it is restarted with exponential backoff
// (bounded: the delay stops growing at maxMs, and after maxConsecutive crashes in a row the
// console stops trying until the operator starts it).
import { AdapterProcess, type ChildHealth, type ExitInfo } from './child';
import { forkLauncher, type AdapterLauncher } from './launcher';
import { pino, type Logger } from 'pino';
import { AdapterError } from './errors';
import { adapterConfig, type AdapterDefinition, type MethodInfo } from './manifest';
import type { AdapterCrash, HealthItem } from '../contract/health';

export interface BackoffOptions {
  /** Delay before the first restart after a crash. */
  initialMs: number;
  /** The delay doubles per crash in a row up to this. */
  maxMs: number;
  /** Crashes in a row after which the console stops restarting the adapter. */
  maxConsecutive: number;
  /** A process that ran this long before crashing starts a new series of crashes. */
  stableMs: number;
}

export interface AdapterManagerOptions {
  runner: string;
  /** How adapter processes start: forked Node unless given (Electron passes its utility processes). */
  launcher?: AdapterLauncher;
  /** The profile's adapters directory (holds `<id>.config.json` files). */
  configDir: string;
  backoff?: Partial<BackoffOptions>;
  /** Default timeout of a method call. */
  callTimeoutMs?: number;
  /** How long a health query waits for the process's answer. */
  healthTimeoutMs?: number;
  /** How long `start` waits for the adapter to be ready before answering. */
  startTimeoutMs?: number;
  /** How long a stopping adapter may take before it is killed. */
  stopGraceMs?: number;
  /** Starts, stops, crashes and restarts are logged here, each with the adapter's id. */
  log?: Logger;
  /** The log levels in use, reported per adapter as the service does. */
  loggerLevels?: () => Record<string, unknown>;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 1000, maxMs: 30_000, maxConsecutive: 10, stableMs: 60_000 };

interface Entry {
  definition: AdapterDefinition;
  wanted: boolean;
  process?: AdapterProcess;
  state: 'RUNNING' | 'STOPPED' | 'DEAD';
  detail?: string;
  restartCount: number;
  crashesInRow: number;
  lastCrash: AdapterCrash | null;
  restartTimer?: NodeJS.Timeout;
  nextRestartAt?: number;
  lastHealth?: ChildHealth;
  implemented?: string[];
  /** Set while the configuration is read and the process is being created. */
  launching?: Promise<void>;
}


export class AdapterManager {
  private readonly entries = new Map<string, Entry>();
  private readonly backoff: BackoffOptions;
  private closed = false;
  readonly callTimeoutMs: number;
  private readonly log: Logger;

  constructor(
    definitions: AdapterDefinition[],
    private readonly options: AdapterManagerOptions,
  ) {
    this.backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    this.callTimeoutMs = options.callTimeoutMs ?? 60_000;
    this.log = (options.log ?? pino({ level: 'silent' })).child({ component: 'adapters' });
    for (const definition of definitions) {
      this.entries.set(definition.id, {
        definition,
        wanted: false,
        state: definition.problem ? 'DEAD' : 'STOPPED',
        detail: definition.problem,
        restartCount: 0,
        crashesInRow: 0,
        lastCrash: null,
      });
    }
  }

  /** The ids of the adapters, in discovery order. */
  list(): string[] {
    return [...this.entries.keys()];
  }

  has(id: string) {
    return this.entries.has(id);
  }

  /** The methods an adapter declares (known even while it is stopped); undefined for an unknown adapter. */
  methods(id: string): string[] | undefined {
    return this.entries.get(id)?.definition.methods.map((m) => m.name);
  }

  methodInfo(id: string): MethodInfo[] | undefined {
    return this.entries.get(id)?.definition.methods;
  }

  private entry(id: string): Entry {
    const entry = this.entries.get(id);
    if (!entry) throw new AdapterError('unknown-adapter', id, undefined, `no adapter "${id}" (adapters: ${this.list().join(', ') || 'none'})`);
    return entry;
  }

  /** Starts every adapter that can be started, without waiting for them to be ready. */
  startAll() {
    for (const entry of this.entries.values()) {
      if (entry.definition.problem) this.log.warn({ adapter: entry.definition.id }, `adapter "${entry.definition.id}" cannot start: ${entry.definition.problem}`);
      else void this.launch(entry).catch((error: Error) => this.log.error({ adapter: entry.definition.id, err: error }, `adapter "${entry.definition.id}" did not start: ${error.message}`));
    }
  }

  private launch(entry: Entry): Promise<void> {
    if (this.closed) return Promise.resolve();
    entry.wanted = true;
    this.clearRestart(entry);
    if (entry.process && !entry.process.exited) return Promise.resolve();
    entry.launching ??= this.spawn(entry).finally(() => (entry.launching = undefined));
    return entry.launching;
  }

  private async spawn(entry: Entry) {
    const { definition } = entry;
    let config: Record<string, unknown>;
    try {
      config = await adapterConfig(definition, this.options.configDir);
    } catch (error) {
      entry.state = 'DEAD';
      entry.detail = (error as Error).message;
      entry.wanted = false;
      this.log.error({ adapter: definition.id }, `adapter "${definition.id}" is DEAD: ${entry.detail}`);
      return;
    }
    if (this.closed || !entry.wanted || (entry.process && !entry.process.exited)) return;
    entry.lastHealth = undefined;
    entry.implemented = undefined;
    entry.detail = undefined;
    entry.state = 'RUNNING';
    const child = new AdapterProcess(definition, config, this.options.runner, (info) => this.onExit(entry, child, info), this.options.launcher ?? forkLauncher);
    entry.process = child;
    this.log.info({ adapter: definition.id, restartCount: entry.restartCount }, `adapter "${definition.id}" starting`);
    child.ready.then(
      (implemented) => {
        entry.implemented = implemented;
        const missing = definition.methods.map((m) => m.name).filter((name) => !implemented.includes(name));
        if (missing.length > 0) entry.detail = `declared but not implemented: ${missing.join(', ')}`;
        this.log.info({ adapter: definition.id, pid: child.pid, methods: implemented.length }, `adapter "${definition.id}" ready${missing.length ? ` (${entry.detail})` : ''}`);
      },
      // A process that dies before it is ready is reported by onExit, as a crash.
      (error: Error) => this.log.debug({ adapter: definition.id }, `adapter "${definition.id}" not ready: ${error.message}`),
    );
  }

  private onExit(entry: Entry, child: AdapterProcess, info: ExitInfo) {
    if (entry.process !== child) return;
    entry.process = undefined;
    entry.lastHealth = undefined;
    if (info.requested || !entry.wanted || this.closed) {
      entry.state = 'STOPPED';
      this.log.info({ adapter: entry.definition.id, exitCode: info.exitCode }, `adapter "${entry.definition.id}" stopped`);
      return;
    }
    const how = info.signal ? `signal ${info.signal}` : `exit code ${info.exitCode}`;
    const when = !child.isReady ? ' while starting' : info.during.length ? ` while running ${info.during.join(', ')}` : '';
    entry.state = 'DEAD';
    entry.lastCrash = {
      at: new Date().toISOString(),
      exitCode: info.exitCode,
      signal: info.signal,
      stderr: info.stderr,
      message: `adapter "${entry.definition.id}" crashed${when} (${how})`,
    };
    entry.crashesInRow = info.ranMs >= this.backoff.stableMs ? 1 : entry.crashesInRow + 1;
    const crash = { adapter: entry.definition.id, exitCode: info.exitCode, signal: info.signal, crashesInRow: entry.crashesInRow, stderr: info.stderr.slice(-10) };
    if (entry.crashesInRow > this.backoff.maxConsecutive) {
      entry.wanted = false;
      entry.detail = `crashed ${entry.crashesInRow} times in a row; not restarted again until started from the console`;
      this.log.error(crash, `${entry.lastCrash.message}; ${entry.detail}`);
      return;
    }
    const delay = Math.min(this.backoff.maxMs, this.backoff.initialMs * 2 ** (entry.crashesInRow - 1));
    entry.nextRestartAt = Date.now() + delay;
    entry.detail = `crashed; restarting in ${Math.round(delay / 100) / 10} s (crash ${entry.crashesInRow} in a row)`;
    this.log.error({ ...crash, restartInMs: delay }, `${entry.lastCrash.message}; ${entry.detail}`);
    entry.restartTimer = setTimeout(() => {
      entry.restartTimer = undefined;
      entry.nextRestartAt = undefined;
      if (!entry.wanted || this.closed) return;
      entry.restartCount += 1;
      void this.launch(entry);
    }, delay);
    entry.restartTimer.unref?.();
  }

  private clearRestart(entry: Entry) {
    if (entry.restartTimer) clearTimeout(entry.restartTimer);
    entry.restartTimer = undefined;
    entry.nextRestartAt = undefined;
  }

  /** Starts an adapter and waits (bounded) until it is ready or has failed. */
  async start(id: string): Promise<void> {
    const entry = this.entry(id);
    if (entry.definition.problem) {
      throw new AdapterError('failed', id, undefined, `adapter "${id}" cannot be started: ${entry.definition.problem}`);
    }
    if (this.closed) throw new AdapterError('not-running', id, undefined, `adapter "${id}" cannot be started: the profile is closing`);
    entry.crashesInRow = 0;
    await this.launch(entry);
    await this.waitReady(entry, this.options.startTimeoutMs ?? 10_000);
  }

  private async waitReady(entry: Entry, timeoutMs: number) {
    const child = entry.process;
    if (!child) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      // Not ready in time, or dead before: either way the wait ends; a crash is reported by onExit.
      child.ready.catch(() => undefined),
      new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs))),
    ]);
    clearTimeout(timer);
  }

  async stop(id: string): Promise<void> {
    const entry = this.entry(id);
    entry.wanted = false;
    this.clearRestart(entry);
    const child = entry.process;
    if (child) await child.stop(this.options.stopGraceMs ?? 3000);
    if (!entry.definition.problem) {
      entry.state = 'STOPPED';
      entry.detail = undefined;
    }
  }

  async restart(id: string): Promise<void> {
    await this.stop(id);
    await this.start(id);
  }

  /**
   * Calls a method of an adapter. Rejects with an AdapterError naming the adapter, the method and
   * the cause: unknown adapter or method, not running, timeout, crash, or the method's own error.
   */
  async call(id: string, method: string, args: Record<string, unknown> = {}, options: { timeoutMs?: number } = {}): Promise<unknown> {
    const entry = this.entry(id);
    const declared = entry.definition.methods.map((m) => m.name);
    if (!declared.includes(method)) {
      throw new AdapterError('unknown-method', id, method, `adapter "${id}" has no method "${method}" (methods: ${declared.join(', ') || 'none'})`);
    }
    const timeoutMs = options.timeoutMs ?? this.callTimeoutMs;
    if (entry.launching) await entry.launching;
    const child = entry.process;
    if (!child || child.exited) {
      const why = entry.state === 'DEAD' ? `DEAD${entry.detail ? `: ${entry.detail}` : entry.lastCrash ? `: ${entry.lastCrash.message}` : ''}` : entry.state;
      throw new AdapterError('not-running', id, method, `adapter "${id}" is not running (${why}); method "${method}" was not called`);
    }
    if (!child.isReady) {
      const started = Date.now();
      let timer: NodeJS.Timeout | undefined;
      const ready = await Promise.race([
        child.ready.then(
          () => true,
          (error: Error) => {
            throw new AdapterError('crash', id, method, `${error.message}; method "${method}" was not called`);
          },
        ),
        new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
      ]).finally(() => clearTimeout(timer));
      if (!ready) throw new AdapterError('timeout', id, method, `adapter "${id}" was not ready within ${timeoutMs} ms (timed out); method "${method}" was not called`);
      return child.call(method, args, Math.max(1, timeoutMs - (Date.now() - started)));
    }
    return child.call(method, args, timeoutMs);
  }

  /** Health items in the reference shape; each running process is asked for its own figures. */
  async items(now = Date.now()): Promise<HealthItem[]> {
    const timeoutMs = this.options.healthTimeoutMs ?? 1500;
    return Promise.all([...this.entries.values()].map((entry) => this.itemOf(entry, timeoutMs, now)));
  }

  async item(id: string): Promise<HealthItem> {
    return this.itemOf(this.entry(id), this.options.healthTimeoutMs ?? 1500, Date.now());
  }

  private async itemOf(entry: Entry, timeoutMs: number, now: number): Promise<HealthItem> {
    const { definition } = entry;
    const child = entry.process;
    let connection: { state: 'ONLINE' | 'OFFLINE'; detail?: string };
    let health: ChildHealth | undefined;
    if (!child || child.exited) {
      connection = { state: 'OFFLINE', detail: entry.state === 'DEAD' ? 'the adapter process is dead' : 'the adapter is stopped' };
    } else if (!child.isReady) {
      connection = { state: 'OFFLINE', detail: 'starting' };
    } else {
      health = await child.health(timeoutMs);
      if (health) {
        entry.lastHealth = health;
        connection = health.connection;
      } else {
        health = entry.lastHealth;
        connection = { state: 'OFFLINE', detail: `no health answer within ${timeoutMs} ms: the adapter process is busy or hung` };
      }
    }
    const running = child && !child.exited;
    return {
      id: definition.id,
      package_id: definition.package_id,
      version: definition.version,
      type: 'Adapter',
      description: definition.description,
      routePrefix: definition.routePrefix,
      state: entry.state,
      ...(entry.detail ? { detail: entry.detail } : {}),
      connection,
      uptime: running ? (health?.uptime ?? (now - child.startedAt) / 1000) : 0,
      memoryUsage: running ? (health?.memoryUsage ?? null) : null,
      cpuUsage: running ? (health?.cpuUsage ?? null) : null,
      pid: running ? (health?.pid ?? child.pid ?? null) : null,
      logger: this.options.loggerLevels?.() ?? {},
      timestamp: now,
      restartCount: entry.restartCount,
      lastCrash: entry.lastCrash,
      ...(entry.nextRestartAt ? { nextRestartAt: new Date(entry.nextRestartAt).toISOString() } : {}),
      methods: definition.methods.map((m) => m.name),
      source: definition.source,
    };
  }

  /** Stops every adapter process (the profile is closing); no restart happens afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(
      [...this.entries.values()].map(async (entry) => {
        entry.wanted = false;
        this.clearRestart(entry);
        if (entry.process) await entry.process.stop(this.options.stopGraceMs ?? 3000);
      }),
    );
  }
}
