// One adapter process: forks the runner with an IPC channel, sends it the adapter's entry and
// configuration, and correlates calls and health queries with their answers. Knows nothing of
// restarts: the manager decides what a crash means.
import { childEnvironment } from '../secrets/classify';
import { AdapterError } from './errors';
import type { AdapterDefinition } from './manifest';
import type { AdapterChild, AdapterLauncher } from './launcher';

export interface ChildHealth {
  pid: number;
  uptime: number;
  memoryUsage: { rss: number; heapTotal: number; heapUsed: number; external: number };
  cpuUsage: { user: number; system: number };
  connection: { state: 'ONLINE' | 'OFFLINE'; detail?: string };
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
}

interface Pending {
  method: string;
  resolve(value: unknown): void;
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
  private readonly healthWaiters = new Map<number, (health: ChildHealth) => void>();
  private nextId = 1;
  private stopRequested = false;
  private stderrTail: string[] = [];
  private partialLine = '';
  private readonly exitPromise: Promise<void>;

  constructor(
    readonly definition: AdapterDefinition,
    config: Record<string, unknown>,
    runner: string,
    onExit: (info: ExitInfo) => void,
    launcher: AdapterLauncher,
  ) {
    this.child = launcher(runner, {
      cwd: definition.dir,
      env: { ...childEnvironment(), CONSOLE_ADAPTER_ID: definition.id },
      name: `adapter ${definition.id}`,
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
      const message = raw as { type?: string; id?: number; ok?: boolean; value?: unknown; error?: string; methods?: string[] } | null;
      if (message?.type === 'ready') {
        this.isReady = true;
        markReady(message.methods ?? []);
      } else if (message?.type === 'result' && typeof message.id === 'number') {
        const pending = this.pending.get(message.id);
        if (!pending) return; // answered after its timeout
        this.pending.delete(message.id);
        clearTimeout(pending.timer);
        if (message.ok) pending.resolve(message.value);
        else pending.reject(new AdapterError('failed', definition.id, pending.method, `adapter "${definition.id}" method "${pending.method}" failed: ${message.error}`));
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
            new AdapterError(this.stopRequested ? 'stopped' : 'crash', definition.id, pending.method, `adapter "${definition.id}" ${cause} while method "${pending.method}" was running`),
          );
          this.pending.delete(id);
        }
        failReady(new AdapterError(this.stopRequested ? 'stopped' : 'crash', definition.id, undefined, `adapter "${definition.id}" ${cause} before it was ready`));
        onExit({ exitCode, signal, requested: this.stopRequested, stderr: [...this.stderrTail], ranMs: Date.now() - this.startedAt, during });
        resolve();
      };
      this.child.onExit((code, signal) => finish(code, signal));
    });

    this.child.send({ type: 'init', id: definition.id, entry: definition.entry, config }, (error) => {
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

  call(method: string, args: Record<string, unknown>, timeoutMs: number): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new AdapterError('timeout', this.definition.id, method, `adapter "${this.definition.id}" method "${method}" did not answer within ${timeoutMs} ms (timed out)`));
      }, timeoutMs);
      this.pending.set(id, { method, resolve, reject, timer });
      this.child.send({ type: 'call', id, method, args }, (error) => {
        if (!error || !this.pending.has(id)) return;
        this.pending.delete(id);
        clearTimeout(timer);
        reject(new AdapterError('crash', this.definition.id, method, `adapter "${this.definition.id}" could not be sent method "${method}": ${error.message}`));
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
