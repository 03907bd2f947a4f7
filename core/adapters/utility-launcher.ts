// A launcher for the Electron main process, where child_process.fork cannot run Node (the
// runAsNode fuse is off): adapter processes as Electron utility processes. Electron is passed
// in (core never imports it): main passes `utilityProcessLauncher(utilityProcess)` to the host as `adapterLauncher`.
import type { AdapterChild, AdapterLauncher } from './launcher';

/** The part of Electron's `utilityProcess` module this launcher uses. */
export interface UtilityProcessModule {
  fork(
    modulePath: string,
    args?: string[],
    options?: { cwd?: string; env?: Record<string, string | undefined>; stdio?: 'pipe'; serviceName?: string; execArgv?: string[] },
  ): UtilityProcessLike;
}

export interface UtilityProcessLike {
  readonly pid: number | undefined;
  readonly stderr: NodeJS.ReadableStream | null;
  readonly stdout: NodeJS.ReadableStream | null;
  postMessage(message: unknown): void;
  kill(): boolean;
  on(event: 'spawn', listener: () => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  on(event: 'message', listener: (message: unknown) => void): unknown;
}

export function utilityProcessLauncher(utilityProcess: UtilityProcessModule): AdapterLauncher {
  return (runner, options): AdapterChild => {
    const child = utilityProcess.fork(runner, [], { cwd: options.cwd, env: options.env, stdio: 'pipe', serviceName: options.name, execArgv: [] });
    let spawned = false;
    let exited = false;
    let pid: number | undefined;
    const queue: unknown[] = [];
    child.on('spawn', () => {
      spawned = true;
      pid = child.pid;
      for (const message of queue.splice(0)) child.postMessage(message);
    });
    const exitListeners: ((code: number | null, signal: string | null) => void)[] = [];
    let stderrEnded = !child.stderr;
    child.stderr?.on('end', () => (stderrEnded = true));
    child.on('exit', (code) => {
      exited = true;
      let reported = false;
      const report = () => {
        if (reported) return;
        reported = true;
        exitListeners.forEach((listener) => listener(code, null));
      };
      // Report once stderr is drained (the last lines before a crash), bounded.
      if (stderrEnded || !child.stderr) return report();
      const timer = setTimeout(report, 250);
      child.stderr.once('end', () => {
        clearTimeout(timer);
        report();
      });
    });
    child.stdout?.resume();
    return {
      get pid() {
        return pid ?? child.pid;
      },
      get connected() {
        return !exited;
      },
      send(message, done) {
        if (exited) return done?.(new Error('the adapter process has exited'));
        try {
          if (spawned) child.postMessage(message);
          else queue.push(message);
          done?.(null);
        } catch (error) {
          done?.(error instanceof Error ? error : new Error(String(error)));
        }
      },
      onMessage: (listener) => void child.on('message', listener),
      onStderr: (listener) => void child.stderr?.on('data', (data: Buffer | string) => listener(String(data))),
      onExit: (listener) => void exitListeners.push(listener),
      // Utility processes take no signal; kill() ends them either way.
      kill: () => void child.kill(),
    };
  };
}
