// A lab: two headless consoles on this machine, started as child processes, each with its own
// data directory and profile, both pointed at one database: one embedded SQLite file
// (`embeddedProps.file`) or, when given, one MongoDB. The standby starts with
// processTasksOnStart false, as the service's Manual Failover procedure asks.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { writeJsonAtomic } from '../files/atomic';
import { Site } from './site';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface LabOptions {
  /** Folder holding both data directories and the shared database file. */
  dir: string;
  /** Base URL the http-request adapter may call (the ledger). */
  ledgerUrl: string;
  /** A MongoDB both sites share instead of the embedded file. */
  mongoUrl?: string;
  /** The standby's processTasksOnStart (false unless a drill means to test a misconfigured standby). */
  standbyProcessTasksOnStart?: boolean;
}

export interface LabSite {
  site: Site;
  dataDir: string;
  profile: Record<string, unknown>;
  process: ChildProcess;
  options: LabOptions;
  /** Whether the process is still alive. */
  alive(): boolean;
  kill(signal: NodeJS.Signals): Promise<void>;
}

export interface Lab {
  active: LabSite;
  standby: LabSite;
  database: string;
  close(): Promise<void>;
}

function labProfile(id: string, processTasksOnStart: boolean, options: LabOptions, dbFile: string) {
  const database = options.mongoUrl ? { mongoProps: { url: options.mongoUrl, db: 'drill' } } : { embeddedProps: { file: dbFile } };
  // A lab rehearses: its jobs may use simulated adapter instances even on MongoDB.
  return { id, serverName: `${id}-lab`, processTasksOnStart, simulationProps: { allowJobs: true }, ...database };
}

/** A lab site's console: its name, data directory and active profile. */
interface ConsoleSpec {
  name: string;
  dataDir: string;
  profile: Record<string, unknown>;
  options: LabOptions;
}

/** Starts a headless console on `dataDir` with `profile` as its active profile, on a free port. */
export async function startConsole(spec: ConsoleSpec, token = randomBytes(24).toString('base64url')): Promise<LabSite> {
  const { name, dataDir, profile, options } = spec;
  // Owner-only: a lab on MongoDB has its URL, password included, in the profile.
  await writeJsonAtomic(path.join(dataDir, 'profiles', String(profile.id), 'properties.json'), profile, { mode: 0o600 });
  await writeJsonAtomic(path.join(dataDir, 'console.json'), { activeProfile: profile.id });
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'core/cli/serve.ts'), '--data-dir', dataDir, '--port', '0', '--no-print-token'], {
    cwd: ROOT,
    env: { ...process.env, CONSOLE_TOKEN: token },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let exited: number | string | null | undefined;
  child.once('exit', (code, signal) => (exited = signal ?? code));
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`the ${name} console did not start within 60 s: ${output.slice(-500)}`)), 60_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Console listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => fail(new Error(`the ${name} console exited (${code}) before it listened: ${output.slice(-500)}`)));
  });
  // Keep draining its output so a full pipe never blocks the console.
  child.stdout.resume();
  child.stderr.resume();
  return {
    site: new Site({ name, url, token }),
    dataDir,
    profile,
    process: child,
    options,
    alive: () => exited === undefined,
    async kill(signal) {
      if (exited !== undefined) return;
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill(signal);
      // A console that does not stop within 20 s of SIGTERM is killed.
      const timer = signal === 'SIGKILL' ? undefined : setTimeout(() => child.kill('SIGKILL'), 20_000);
      await gone;
      clearTimeout(timer);
    },
  };
}

/** Starts a lab site's console again on its data directory, with its token (failback after a kill). */
export function startLabSite(site: LabSite): Promise<LabSite> {
  return startConsole({ name: site.site.name, dataDir: site.dataDir, profile: site.profile, options: site.options }, site.site.ref.token);
}

export async function startLab(options: LabOptions): Promise<Lab> {
  await mkdir(options.dir, { recursive: true });
  const dbFile = path.join(options.dir, 'shared.sqlite');
  const active = await startConsole({ name: 'active', dataDir: path.join(options.dir, 'active'), profile: labProfile('active', true, options, dbFile), options });
  let standby: LabSite;
  try {
    standby = await startConsole({ name: 'standby', dataDir: path.join(options.dir, 'standby'), profile: labProfile('standby', options.standbyProcessTasksOnStart ?? false, options, dbFile), options });
  } catch (error) {
    await active.kill('SIGKILL');
    throw error;
  }
  const lab: Lab = {
    active,
    standby,
    database: options.mongoUrl ? `MongoDB ${options.mongoUrl.replace(/\/\/[^@/]*@/, '//********@')} (db "drill")` : `embedded file ${dbFile}`,
    async close() {
      // Graceful first: each console hands its running tasks back and releases its data directory.
      // The sites as they are now (an active restarted for failback replaced the first one).
      await Promise.all([lab.active, lab.standby].map((s) => s.kill('SIGTERM')));
    },
  };
  return lab;
}
