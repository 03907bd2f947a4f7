// The adapter instances of the active profile (one per service config), each in its own process:
// start, stop, restart, method calls in pronghorn order with a timeout, the connection state the
// adapter's events report, health as each process answers it, and crash handling. A crashed
// adapter is DEAD, its crash is kept for the operator, and it is restarted with exponential
// backoff (the delay stops growing at maxMs; after maxConsecutive crashes in a row the console
// stops trying until the operator starts it).
import { afterCrash, DEFAULT_BACKOFF, type BackoffOptions } from './backoff';
import { AdapterProcess, type CallAnswer, type ChildHealth, type ExitInfo } from './child';
import { adapterLogger, connectionOf, healthItem, isStub, newEntry, STOPPED, type Entry } from './entry';
import { AdapterError } from './errors';
import { forkLauncher, type AdapterLauncher } from './launcher';
import { pino, type Logger } from 'pino';
import { findMethod, type AdapterPackage } from './package';
import type { ServiceConfig } from './service-config';
import type { HealthItem, LoggerLevels } from '../contract/health';
import { redactText, secretValues } from '../secrets/classify';
import { isSimulated, SimulatedCalls } from './simulated/instance';
import { InstanceThrottles } from './throttle';

export interface AdapterManagerOptions {
  runner: string;
  /** How adapter processes start: forked Node unless given (Electron passes its utility processes). */
  launcher?: AdapterLauncher;
  backoff?: Partial<BackoffOptions>;
  /** Default timeout of a method call (a service config's `timeout` overrides it). */
  callTimeoutMs?: number;
  /** How long a health query waits for the process's answer. */
  healthTimeoutMs?: number;
  /** How long `start` waits for the adapter to be ready before answering. */
  startTimeoutMs?: number;
  /** How long a stopping adapter may take before it is killed. */
  stopGraceMs?: number;
  /** The console's log: the adapters' own `log` lines, and their starts, crashes and restarts, each with the adapter's id. */
  log?: Logger;
  /** The log levels in use, reported per adapter (where its service config's loggerProps do not set them). */
  loggerLevels?: () => LoggerLevels;
}

/** What a workflow task gets back: the adapter's result or its error object, and the method's output name (`outputDeclared` false: a simulated method of unknown schema, see execute.ts). */
export type AdapterAnswer = CallAnswer & { output: string; simulated?: string; outputDeclared?: boolean };

const LOG_LINES = 200;
/** The service's adapter log levels on the console's (pino) levels. */
const LEVELS: Record<string, 'error' | 'warn' | 'info' | 'debug' | 'trace'> = { error: 'error', warn: 'warn', info: 'info', debug: 'debug', trace: 'trace', spam: 'trace' };

export class AdapterManager {
  private readonly entries = new Map<string, Entry>();
  private readonly backoff: BackoffOptions;
  private closed = false;
  readonly callTimeoutMs: number;
  private readonly log: Logger;

  constructor(private readonly options: AdapterManagerOptions) {
    this.backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    this.callTimeoutMs = options.callTimeoutMs ?? 60_000;
    this.log = (options.log ?? pino({ level: 'silent' })).child({ component: 'adapters' });
  }

  list(): string[] {
    return [...this.entries.keys()].sort((a, b) => a.localeCompare(b));
  }

  has(id: string) {
    return this.entries.has(id);
  }

  /** Each instance's state now, without asking its process (what `GET /health/status` reads every few seconds). */
  states = (): Entry['state'][] => this.list().map((id) => this.entries.get(id)!.state);

  /** The service config and package of an instance. */
  instance(id: string): { config: ServiceConfig; pkg?: AdapterPackage; problem?: string } | undefined {
    const entry = this.entries.get(id);
    return entry && { config: entry.config, pkg: entry.pkg, problem: entry.problem };
  }

  logs(id: string) {
    return [...(this.entry(id).logs ?? [])];
  }

  private entry(id: string): Entry {
    const entry = this.entries.get(id);
    if (!entry) throw new AdapterError('unknown-adapter', id, undefined, `no adapter "${id}" (adapters: ${this.list().join(', ') || 'none'})`);
    return entry;
  }

  /** Adds an instance, or replaces its config (a running process keeps the old one until restarted). */
  set(config: ServiceConfig, pkg: AdapterPackage | undefined, problem?: string) {
    const known = this.entries.get(config.id);
    const why = problem ?? pkg?.problem;
    if (known) {
      Object.assign(known, { config, pkg, problem: why });
      known.simulated?.reconfigure(config);
      if (!known.process && !known.simulated) {
        known.state = why ? 'DEAD' : 'STOPPED';
        known.detail = why;
      }
      return;
    }
    const entry = newEntry(config, pkg, why);
    if (isSimulated(config)) entry.simulated = new SimulatedCalls(config);
    this.entries.set(config.id, entry);
  }

  /** Stops an instance and forgets it. */
  async remove(id: string) {
    await this.stop(id);
    this.entries.delete(id);
    this.throttles.forget(id);
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
    const { config, pkg } = entry;
    if (!pkg || entry.problem || this.closed || !entry.wanted) return;
    entry.lastHealth = undefined;
    entry.detail = undefined;
    entry.state = 'RUNNING';
    if (entry.simulated) {
      // No process: it answers in the console by its rules.
      entry.connection = { state: 'ONLINE', detail: 'simulated' };
      return;
    }
    entry.connection = { state: 'OFFLINE', detail: 'connecting' };
    const spec = { id: config.id, pkg, properties: (config.properties ?? {}) };
    // The clear secrets of its config: an adapter that logs its password without naming it is masked too.
    const known = secretValues(config.properties);
    const child: AdapterProcess = new AdapterProcess(spec, this.options.runner, {
      onExit: (info) => this.onExit(entry, child, info),
      onEvent: (event) => {
        if (entry.process === child) entry.connection = connectionOf(event);
      },
      onHealthCheck: (ok, detail) => {
        if (entry.process !== child) return;
        entry.lastHealthCheck = { at: new Date().toISOString(), ok, ...(detail ? { detail } : {}) };
      },
      onLog: (level, line) => {
        // Masked once, where it comes in: the recent lines (GET /adapters/:name) and the log file get the same text.
        const message = redactText(line, known);
        entry.logs.push({ at: new Date().toISOString(), level, message });
        if (entry.logs.length > LOG_LINES) entry.logs.shift();
        this.log[LEVELS[level] ?? 'info']({ adapter: config.id }, message);
      },
    }, this.options.launcher ?? forkLauncher);
    entry.process = child;
    this.log.info({ adapter: config.id, package: pkg.name, stub: isStub(config), restartCount: entry.restartCount }, `adapter "${config.id}" starting`);
    // A process dying before it is ready is reported by onExit, as a crash.
    child.ready.then(
      (methods) => this.log.info({ adapter: config.id, pid: child.pid, methods: methods.length }, `adapter "${config.id}" ready`),
      () => undefined,
    );
  }

  private onExit(entry: Entry, child: AdapterProcess, info: ExitInfo) {
    if (entry.process !== child) return;
    entry.process = undefined;
    entry.lastHealth = undefined;
    if (info.requested || !entry.wanted || this.closed) {
      entry.state = 'STOPPED';
      entry.connection = { ...STOPPED };
      return;
    }
    if (info.loadFailure) {
      // Its package's code cannot be loaded (e.g. its dependencies are not installed): starting it
      // again would fail the same way, so it is not restarted until started from the console.
      entry.state = 'DEAD';
      entry.wanted = false;
      entry.crashesInRow = 0;
      entry.detail = info.loadFailure;
      entry.connection = { state: 'OFFLINE', detail: 'its package cannot be loaded' };
      entry.lastCrash = { at: new Date().toISOString(), exitCode: info.exitCode, signal: info.signal, stderr: info.stderr, message: info.loadFailure };
      this.log.error({ adapter: entry.config.id, exitCode: info.exitCode, stderr: info.stderr }, info.loadFailure);
      return;
    }
    const how = info.signal ? `signal ${info.signal}` : `exit code ${info.exitCode}`;
    const when = !child.isReady ? ' while starting' : info.during.length ? ` while running ${info.during.join(', ')}` : '';
    entry.state = 'DEAD';
    entry.connection = { state: 'OFFLINE', detail: 'the adapter process is dead' };
    entry.lastCrash = {
      at: new Date().toISOString(),
      exitCode: info.exitCode,
      signal: info.signal,
      stderr: info.stderr,
      message: `adapter "${entry.config.id}" crashed${when} (${how})`,
    };
    this.log.error({ adapter: entry.config.id, exitCode: info.exitCode, signal: info.signal, stderr: info.stderr }, entry.lastCrash.message);
    const next = afterCrash(this.backoff, entry.crashesInRow, info.ranMs);
    entry.crashesInRow = next.crashesInRow;
    if (next.delayMs === undefined) {
      entry.wanted = false;
      entry.detail = `crashed ${entry.crashesInRow} times in a row; not restarted again until started from the console`;
      return;
    }
    const delay = next.delayMs;
    entry.nextRestartAt = Date.now() + delay;
    entry.detail = `crashed; restarting in ${Math.round(delay / 100) / 10} s (crash ${entry.crashesInRow} in a row)`;
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

  /** Starts an instance and waits (bounded) until it is ready or has failed. */
  async start(id: string): Promise<void> {
    const entry = this.entry(id);
    if (entry.problem || !entry.pkg) {
      throw new AdapterError('failed', id, undefined, `adapter "${id}" cannot be started: ${entry.problem ?? 'no package'}`);
    }
    if (this.closed) throw new AdapterError('not-running', id, undefined, `adapter "${id}" cannot be started: the profile is closing`);
    entry.crashesInRow = 0;
    await this.launch(entry);
    const child = entry.process;
    if (!child) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([child.ready.catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, this.options.startTimeoutMs ?? 10_000)))]);
    clearTimeout(timer);
  }

  async stop(id: string): Promise<void> {
    const entry = this.entry(id);
    entry.wanted = false;
    this.clearRestart(entry);
    const child = entry.process;
    if (child) await child.stop(this.options.stopGraceMs ?? 3000);
    if (!entry.problem) {
      entry.state = 'STOPPED';
      entry.detail = undefined;
    }
    entry.connection = { ...STOPPED };
  }

  async restart(id: string): Promise<void> {
    await this.stop(id);
    await this.start(id);
  }

  /**
   * Calls a method of an instance with named inputs, passed in the order of pronghorn.json's
   * `input`. Resolves with the adapter's answer (result or error object); rejects with an
   * AdapterError naming the adapter, the method and the cause when it cannot be called or answer.
   */
  async call(id: string, method: string, named: Record<string, unknown> = {}, options: { timeoutMs?: number } = {}): Promise<AdapterAnswer> {
    const entry = this.entry(id);
    // The instance's own throttle (properties.throttle), where it declares one, bounds its calls.
    const throttle = this.throttles.of(entry.config);
    return throttle ? throttle.run(method, () => this.callNow(entry, method, named, options)) : this.callNow(entry, method, named, options);
  }

  /** Each instance's throttle, made again when its settings change. */
  private readonly throttles = new InstanceThrottles();
  private async callNow(entry: Entry, method: string, named: Record<string, unknown>, options: { timeoutMs?: number }): Promise<AdapterAnswer> {
    const id = entry.config.id;
    if (entry.simulated) {
      if (entry.state !== 'RUNNING') throw new AdapterError('not-running', id, method, `simulated adapter "${id}" is ${entry.state}; method "${method}" was not called`);
      return { ...(await entry.simulated.call(method, named)), ...entry.simulated.outputOf(method), simulated: id };
    }
    const declared = entry.pkg && findMethod(entry.pkg, method);
    if (!declared) {
      throw new AdapterError('unknown-method', id, method, `adapter "${id}" has no method "${method}" in ${entry.pkg?.name ?? 'its package'}'s pronghorn.json`);
    }
    const configured = Number((entry.config as { timeout?: unknown }).timeout);
    const timeoutMs = options.timeoutMs ?? (configured > 0 ? configured : this.callTimeoutMs);
    if (entry.launching) await entry.launching;
    const child = entry.process;
    if (!child || child.exited) {
      const why = entry.state === 'DEAD' ? `DEAD${entry.detail ? `: ${entry.detail}` : entry.lastCrash ? `: ${entry.lastCrash.message}` : ''}` : entry.state;
      throw new AdapterError('not-running', id, method, `adapter "${id}" is not running (${why}); method "${method}" was not called`);
    }
    const started = Date.now();
    if (!child.isReady) {
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
    }
    const args = declared.input.map((input) => named[input.name]);
    const answer = await child.call(method, args, timeoutMs, Math.max(1, timeoutMs - (Date.now() - started)));
    return { ...answer, output: declared.output?.name ?? 'result' };
  }

  /** Starts every instance in `ids` without waiting for them. */
  startAll(ids: string[]) {
    for (const id of ids) {
      const entry = this.entries.get(id);
      if (entry && !entry.problem && entry.pkg) void this.launch(entry);
    }
  }

  async items(now = Date.now()): Promise<HealthItem[]> {
    const timeoutMs = this.options.healthTimeoutMs ?? 1500;
    return Promise.all(this.list().map((id) => this.itemOf(this.entries.get(id)!, timeoutMs, now)));
  }

  async item(id: string): Promise<HealthItem> {
    return this.itemOf(this.entry(id), this.options.healthTimeoutMs ?? 1500, Date.now());
  }

  private async itemOf(entry: Entry, timeoutMs: number, now: number): Promise<HealthItem> {
    const logger = adapterLogger(entry.config.loggerProps, this.options.loggerLevels?.());
    const running = entry.process && !entry.process.exited ? entry.process : undefined;
    let health: ChildHealth | undefined;
    let connection = entry.connection;
    if (running?.isReady) {
      health = await running.health(timeoutMs);
      if (health) entry.lastHealth = health;
      else if (running.exited) connection = entry.connection;
      else {
        health = entry.lastHealth;
        connection = { state: 'OFFLINE', detail: `no health answer within ${timeoutMs} ms: the adapter process is busy or hung` };
      }
    }
    return healthItem(entry, { running, health, connection, now, logger });
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
