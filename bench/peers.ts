// The queues the engine bench measures this engine against (plainjob, liteque) and their SQLite
// binding (better-sqlite3, a native addon that node-gyp compiles against Node's headers): kept out
// of the project's install, so `npm ci` builds nothing native and needs no compiler or headers.
// `npm run bench` installs them on first use into a cache folder outside the clone (saying so),
// BENCH_PEERS_DIR or $XDG_CACHE_HOME/automation-console-bench (~/.cache/…), and imports them from
// there; where that install fails (no compiler, no Node headers) their rounds are skipped, saying why.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The versions measured (docs/performance.md), pinned so every run compares the same code. */
export const PEER_VERSIONS = { plainjob: '0.0.14', liteque: '0.8.0', 'better-sqlite3': '13.2.0' } as const;
type PeerName = keyof typeof PEER_VERSIONS;

/** What the queue bench uses of better-sqlite3. */
export interface SqliteConnection {
  close(): void;
  exec(sql: string): unknown;
}
interface Logger {
  error(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  info(...args: unknown[]): void;
  debug(...args: unknown[]): void;
}
/** What the queue bench uses of plainjob. */
export interface Plainjob {
  better(db: SqliteConnection): unknown;
  defineQueue(options: { connection: unknown; logger: Logger }): { add(type: string, data: unknown): unknown; close(): void };
  defineWorker(
    type: string,
    run: (job: { data: string }) => void,
    options: { queue: unknown; logger: Logger; pollIntervall: number; onCompleted: () => void },
  ): { start(): Promise<void>; stop(): Promise<void> };
}
/** What the queue bench uses of liteque. */
export interface Liteque {
  buildDBClient(file: string, options: { walEnabled: boolean; runMigrations: boolean }): object;
  SqliteQueue: new <T>(name: string, db: object, options: { defaultJobArgs: { numRetries: number }; keepFailedJobs: boolean }) => { enqueue(data: T): Promise<unknown> };
  Runner: new <T, R>(
    queue: { enqueue(data: T): Promise<unknown> },
    handlers: { run: (job: { data: T }) => Promise<R>; onComplete: () => Promise<void> },
    options: { pollIntervalMs: number; timeoutSecs: number; concurrency: number },
  ) => { run(): Promise<void>; stop(): void };
}
export interface Peers {
  plainjob: Plainjob;
  liteque: Liteque;
  Database: new (file: string) => SqliteConnection;
}

/** The cache folder the peers are installed into: outside the clone, kept between runs. */
export function peersDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.BENCH_PEERS_DIR) return path.resolve(env.BENCH_PEERS_DIR);
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'automation-console-bench');
}

/** The peers not installed in `dir` at the pinned version. */
export function missingPeers(dir: string): PeerName[] {
  return (Object.keys(PEER_VERSIONS) as PeerName[]).filter((name) => {
    const file = path.join(dir, 'node_modules', name, 'package.json');
    if (!existsSync(file)) return true;
    const { version } = JSON.parse(readFileSync(file, 'utf8')) as { version?: string };
    return version !== PEER_VERSIONS[name];
  });
}

/** npm as it runs this script (npm_execpath under `npm run`), else the one on PATH. */
function npmCommand(): string[] {
  const cli = process.env.npm_execpath;
  if (cli && /\.[cm]?js$/.test(cli)) return [process.execPath, cli];
  return [process.platform === 'win32' ? 'npm.cmd' : 'npm'];
}

export interface LoadOptions {
  dir?: string;
  /** The npm command line to install with (tests give a stand-in). */
  npm?: string[];
  log?: (line: string) => void;
}

let loaded: Promise<Peers | { unavailable: string }> | undefined;

/** The peers, installed first when missing; `{ unavailable }` says why they cannot run here. Loaded once per process. */
export function benchPeers(options: LoadOptions = {}): Promise<Peers | { unavailable: string }> {
  loaded ??= loadPeers(options);
  return loaded;
}

export async function loadPeers({ dir = peersDir(), npm = npmCommand(), log = (line) => console.error(line) }: LoadOptions = {}): Promise<Peers | { unavailable: string }> {
  const missing = missingPeers(dir);
  if (missing.length) {
    const specs = missing.map((name) => `${name}@${PEER_VERSIONS[name]}`);
    log(`bench: installing ${specs.join(', ')} into ${dir} (first use: the queues the engine is measured against, kept out of the project's install because better-sqlite3 is a native build; set BENCH_PEERS_DIR to choose another folder)`);
    const [command = 'npm', ...args] = npm;
    // npm's own output goes to stderr: with --json, stdout carries only the figures.
    const run = spawnSync(command, [...args, 'install', '--prefix', dir, '--no-audit', '--no-fund', ...specs], {
      stdio: ['ignore', 2, 2],
      shell: process.platform === 'win32',
    });
    if (run.error) return { unavailable: `could not run npm to install ${specs.join(', ')} into ${dir}: ${run.error.message}` };
    if (run.status !== 0) {
      return {
        unavailable: `installing ${specs.join(', ')} into ${dir} failed (npm exited ${String(run.status ?? run.signal)}, its output above; better-sqlite3 compiles with node-gyp, which needs a C++ compiler and Node's headers: npm's nodedir setting names headers on disk)`,
      };
    }
    const still = missingPeers(dir);
    if (still.length) return { unavailable: `npm installed into ${dir} but ${still.join(', ')} is still missing there` };
  }
  const require = createRequire(path.join(dir, 'package.json'));
  const load = async <T>(name: PeerName): Promise<T> => (await import(pathToFileURL(require.resolve(name)).href)) as T;
  try {
    const [plainjob, liteque, sqlite] = await Promise.all([load<Plainjob>('plainjob'), load<Liteque>('liteque'), load<{ default: Peers['Database'] }>('better-sqlite3')]);
    // The native addon loads only when built for this Node: a folder built by another one says so here.
    new sqlite.default(':memory:').close();
    return { plainjob, liteque, Database: sqlite.default };
  } catch (error) {
    return { unavailable: `the bench's peers in ${dir} do not load on Node ${process.versions.node} (${error instanceof Error ? error.message : String(error)}); remove that folder to install them again` };
  }
}
