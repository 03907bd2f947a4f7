// Starts the MongoDB-wire-compatible test server shipped on npm
// (@jongodb/memory-server-bin-linux-x64-gnu) on a free port, for the MongoDB
// adapter's tests and bench. It prints `JONGODB_URI=mongodb://127.0.0.1:PORT/test` when ready.
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import path from 'node:path';

const PACKAGE = '@jongodb/memory-server-bin-linux-x64-gnu';

export interface TestMongo {
  /** mongodb://127.0.0.1:PORT */
  url: string;
  stop(): Promise<void>;
}

/** The server binary, or why it cannot run here. */
export function jongodbBinary(): { binary: string } | { unavailable: string } {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    return { unavailable: `${PACKAGE} runs on linux-x64 only (this is ${process.platform}-${process.arch})` };
  }
  try {
    const require = createRequire(import.meta.url);
    const manifest = require.resolve(`${PACKAGE}/package.json`);
    const { jongodb } = require(manifest) as { jongodb?: { binary?: string } };
    const binary = path.join(path.dirname(manifest), jongodb?.binary ?? 'bin/jongodb');
    if (!existsSync(binary)) return { unavailable: `${PACKAGE} has no binary at ${binary}` };
    return { binary };
  } catch {
    return { unavailable: `${PACKAGE} is not installed` };
  }
}

/** `replicaSet`: a single-node replica set of that name (it has transactions); else a standalone server. */
export async function startJongodb(options: { replicaSet?: string } = {}): Promise<TestMongo> {
  const found = jongodbBinary();
  if ('unavailable' in found) throw new Error(found.unavailable);
  const topology = options.replicaSet ? ['--topology-profile=singleNodeReplicaSet', `--replica-set-name=${options.replicaSet}`] : [];
  const child = spawn(found.binary, ['--host=127.0.0.1', '--port=0', ...topology], { stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`jongodb did not start within 20 s: ${output}`)), 20_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /JONGODB_URI=(mongodb:\/\/[^\s/]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', fail);
    child.once('exit', (code) => fail(new Error(`jongodb exited (${code}) before it was ready: ${output}`)));
  });
  return { url, stop: () => stopChild(child) };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
