// One adapter process: forks the runner with an IPC channel, sends it the package's module and
// the instance's properties, and correlates calls and health queries with their answers; the
// adapter's events, health checks and log lines go to `listeners`. Knows nothing of restarts:
// the manager decides what a crash means.
import { childEnvironment } from '../secrets/classify';
import { AdapterError } from './errors';
import type { AdapterPackage } from './package';
import type { AdapterChild, AdapterLauncher } from './launcher';

/** What one instance process runs: the service config's name and properties, and its package. */
export interface InstanceSpec {
  id: string;
  pkg: AdapterPackage;
  properties: Record<string, unknown>;
}

export type AdapterEvent = 'ONLINE' | 'OFFLINE' | 'DEGRADED' | 'FIXED';

export interface ChildListeners {
  onExit(info: ExitInfo): void;
  onEvent?(event: AdapterEvent): void;
  onHealthCheck?(ok: boolean, detail?: string): void;
  onLog?(level: string, message: string): void;
}

/** An adapter's answer to a call: its result, or the error object it gave its callback. */
export type CallAnswer = { ok: true; value: unknown } | { ok: false; error: unknown };

export interface ChildHealth {
  pid: number;
  uptime: number;
  memoryUsage: { rss: number; heapTotal: number; heapUsed: number; external: number; arrayBuffers: number };
  cpuUsage: { user: number; system: number };
}

export interface ExitInfo {
  exitCode: number | null;
  signal: string | null;
  /** True when the console asked the process to stop. */
  requested: boolean;
  stderr: string[];
  /** Milliseconds the process ran. */
  ranMs: number;
  /** Methods that were running when it exited. */
  during: string[];
  /** Why the package's module could not be loaded (its dependencies not installed, ...), when that is why it exited. */
  loadFailure?: string;
}

interface Pending {
  method: string;
  resolve(value: CallAnswer): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

const STDERR_LINES = 20;

export class AdapterProcess {
  readonly child: AdapterChild;
  readonly startedAt = Date.now();
  /** Resolves with the methods the module implements once it has started; rejects if it dies first. */
  readonly ready: Promise<string[]>;
  isReady = false;
  exited = false;
  private readonly pending = new Map<number, Pending>();
  private readonly healthWaiters = new Map<number, (health: ChildHealth | undefined) => void>();
  private nextId = 1;
  private stopRequested = false;
  private stderrTail: string[] = [];
  private loadFailure?: string;
  private partialLine = '';
  private readonly exitPromise: Promise<void>;

  constructor(
    readonly spec: InstanceSpec,
    runner: string,
    listeners: ChildListeners,
    launcher: AdapterLauncher,
  ) {
    const onExit = listeners.onExit;
    this.child = launcher(runner, {
      cwd: spec.pkg.dir,
      env: { ...childEnvironment(), CONSOLE_ADAPTER_ID: spec.id },
      name: `adapter ${spec.id}`,
    });
    this.child.onStderr((chunk) => this.keepStderr(chunk));

    let markReady!: (methods: string[]) => void;
    let failReady!: (error: Error) => void;
    this.ready = new Promise<string[]>((resolve, reject) => {
      markReady = resolve;
      failReady = reject;
    });
    // Callers that wait on `ready` see the rejection; this keeps an unawaited one from being unhandled.
    this.ready.catch(() => undefined);

    this.child.onMessage((raw) => {
      const message = raw as
        | { type?: string; id?: number; ok?: boolean; value?: unknown; error?: unknown; methods?: string[]; event?: AdapterEvent; detail?: string; level?: string; message?: string }
        | null;
      if (message?.type === 'event' && message.event) listeners.onEvent?.(message.event);
      else if (message?.type === 'healthcheck') listeners.onHealthCheck?.(message.ok === true, message.detail);
      else if (message?.type === 'log') listeners.onLog?.(String(message.level), String(message.message));
      else if (message?.type === 'load-failed') this.loadFailure = String(message.message);
      else if (message?.type === 'ready') {
        this.isReady = true;
        markReady(message.methods ?? []);
      } else if (message?.type === 'result' && typeof message.id === 'number') {
        const pending = this.pending.get(message.id);
        if (!pending) return; // answered after its timeout
        this.pending.delete(message.id);
        clearTimeout(pending.timer);
        pending.resolve(message.ok ? { ok: true, value: message.value } : { ok: false, error: message.error });
      } else if (message?.type === 'health' && typeof message.id === 'number') {
        this.healthWaiters.get(message.id)?.(message as unknown as ChildHealth);
        this.healthWaiters.delete(message.id);
      }
    });

    this.exitPromise = new Promise<void>((resolve) => {
      const finish = (exitCode: number | null, signal: string | null) => {
        if (this.exited) return;
        this.exited = true;
        if (this.partialLine) this.pushLine(this.partialLine);
        const during = [...this.pending.values()].map((p) => p.method);
        const cause = this.stopRequested
          ? `was stopped`
          : `crashed (${signal ? `signal ${signal}` : `exit code ${exitCode}`})`;
        for (const [id, pending] of this.pending) {
          clearTimeout(pending.timer);
          pending.reject(
            new AdapterError(this.stopRequested ? 'stopped' : 'crash', spec.id, pending.method, `adapter "${spec.id}" ${cause} while method "${pending.method}" was running`),
          );
          this.pending.delete(id);
        }
        // Health queries in flight get no answer now: say so at once rather than at their timeout.
        for (const waiter of this.healthWaiters.values()) waiter(undefined);
        this.healthWaiters.clear();
        failReady(new AdapterError(this.stopRequested ? 'stopped' : 'crash', spec.id, undefined, `adapter "${spec.id}" ${cause} before it was ready`));
        // The runner says so over IPC; its stderr line stands in when that message was lost.
        const loadFailure = this.loadFailure ?? (this.isReady ? undefined : this.stderrTail.find((line) => / cannot load its package: /.test(line)));
        onExit({ exitCode, signal, requested: this.stopRequested, stderr: [...this.stderrTail], ranMs: Date.now() - this.startedAt, during, ...(loadFailure ? { loadFailure } : {}) });
        resolve();
      };
      this.child.onExit((code, signal) => finish(code, signal));
    });

    const init = { type: 'init', id: spec.id, packageDir: spec.pkg.dir, src: spec.pkg.src, exportName: spec.pkg.export, properties: spec.properties };
    this.child.send(init, (error) => {
      if (error) this.pushLine(`cannot reach the adapter process: ${error.message}`);
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  private pushLine(line: string) {
    this.stderrTail.push(line);
    if (this.stderrTail.length > STDERR_LINES) this.stderrTail.shift();
  }

  private keepStderr(chunk: string) {
    const lines = (this.partialLine + chunk).split(/\r?\n/);
    this.partialLine = lines.pop() ?? '';
    for (const line of lines) if (line.trim() !== '') this.pushLine(line);
  }

  /**
   * Calls a method with its inputs in order; resolves with the adapter's answer (result or error object).
   * `timeoutMs`: the call's timeout, as its error names it; `leftMs`: what is left of it (the rest went waiting for the adapter to be ready).
   */
  call(method: string, args: unknown[], timeoutMs: number, leftMs = timeoutMs): Promise<CallAnswer> {
    const id = this.nextId++;
    // JSON turns undefined into null in arrays: say which inputs were not given.
    const undefinedAt = args.flatMap((a, i) => (a === undefined ? [i] : []));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new AdapterError('timeout', this.spec.id, method, `adapter "${this.spec.id}" method "${method}" did not answer within ${timeoutMs} ms (timed out)`));
      }, leftMs);
      this.pending.set(id, { method, resolve, reject, timer });
      this.child.send({ type: 'call', id, method, args, undefinedAt }, (error) => {
        if (!error || !this.pending.has(id)) return;
        this.pending.delete(id);
        clearTimeout(timer);
        reject(new AdapterError('crash', this.spec.id, method, `adapter "${this.spec.id}" could not be sent method "${method}": ${error.message}`));
      });
    });
  }

  /** The process's own health answer, or undefined when it does not answer in time. */
  health(timeoutMs: number): Promise<ChildHealth | undefined> {
    if (this.exited || !this.child.connected) return Promise.resolve(undefined);
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.healthWaiters.delete(id);
        resolve(undefined);
      }, timeoutMs);
      this.healthWaiters.set(id, (health) => {
        clearTimeout(timer);
        resolve(health);
      });
      this.child.send({ type: 'health', id }, (error) => {
        if (error) {
          clearTimeout(timer);
          this.healthWaiters.delete(id);
          resolve(undefined);
        }
      });
    });
  }

  /** Asks the adapter to stop, killing it when it does not exit within `graceMs`. */
  async stop(graceMs: number): Promise<void> {
    if (this.exited) return;
    this.stopRequested = true;
    if (this.child.connected) this.child.send({ type: 'stop' }, () => undefined);
    else this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exitPromise;
    clearTimeout(timer);
  }
}
