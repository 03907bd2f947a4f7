// How an adapter process is started. Under plain Node (the headless console, tests) it is
// child_process.fork with an IPC channel. The Electron main process, where fork cannot run
// Node (the runAsNode fuse is off), passes a launcher built on utilityProcess.fork to the host
// (`HostOptions.adapterLauncher`); the runner speaks to either (process.send or process.parentPort).
import { fork } from 'node:child_process';

export interface AdapterChild {
  readonly pid: number | undefined;
  /** False once the channel to the process is closed. */
  readonly connected: boolean;
  /** Sends a message; calls `done` with an error when it could not be sent. */
  send(message: unknown, done?: (error: Error | null) => void): void;
  onMessage(listener: (message: unknown) => void): void;
  onStderr(listener: (text: string) => void): void;
  /** Called once when the process has exited (or could not be started). */
  onExit(listener: (exitCode: number | null, signal: string | null) => void): void;
  kill(signal?: NodeJS.Signals): void;
}

export interface LaunchOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  /** A name for the process (shown by Electron's process list). */
  name: string;
}

export type AdapterLauncher = (runner: string, options: LaunchOptions) => AdapterChild;

/** child_process.fork with an IPC channel; stdout is drained, stderr kept by the caller. */
export const forkLauncher: AdapterLauncher = (runner, options) => {
  const child = fork(runner, [], {
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    cwd: options.cwd,
    serialization: 'json',
    // Not the console's own flags (a TypeScript loader, inspector): an adapter is plain Node.
    execArgv: [],
    env: options.env,
  });
  child.stdout?.resume();
  child.stderr?.setEncoding('utf8');
  let exited = false;
  const exitListeners: ((code: number | null, signal: string | null) => void)[] = [];
  const finish = (code: number | null, signal: string | null) => {
    if (exited) return;
    exited = true;
    for (const listener of exitListeners) listener(code, signal);
  };
  // 'close' comes once stderr is drained, so the last lines before a crash are kept; a
  // grandchild holding stderr open must not delay the crash report, hence the bound.
  child.on('exit', (code, signal) => {
    const timer = setTimeout(() => finish(code, signal), 250);
    child.once('close', () => {
      clearTimeout(timer);
      finish(code, signal);
    });
  });
  const stderrListeners: ((text: string) => void)[] = [];
  child.stderr?.on('data', (text: string) => stderrListeners.forEach((listener) => listener(text)));
  child.on('error', (error) => {
    stderrListeners.forEach((listener) => listener(`cannot run the adapter process: ${error.message}\n`));
    // A process that never started emits no 'exit'.
    if (child.pid === undefined) finish(null, null);
  });
  return {
    get pid() {
      return child.pid;
    },
    get connected() {
      return child.connected;
    },
    send(message, done) {
      if (!child.connected) {
        done?.(new Error('the adapter process has no channel open'));
        return;
      }
      child.send(message as object, (error) => done?.(error ?? null));
    },
    onMessage: (listener) => void child.on('message', listener),
    onStderr: (listener) => void stderrListeners.push(listener),
    onExit: (listener) => void exitListeners.push(listener),
    kill: (signal) => void child.kill(signal),
  };
};
