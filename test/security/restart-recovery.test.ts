// After a crash, the console's next start takes back at once the tasks its dead run held
// (same server id, that run's process gone), instead of after their 30 s lease; tasks of a
// live process with the same server id are left alone.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../core/store/open';
import { readProperties } from '../../core/profiles/directory';
import { startTestHost, type TestHost } from '../support/host';

const dirs: string[] = [];
const hosts: TestHost[] = [];
afterAll(async () => {
  for (const host of hosts) await host.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** A data directory whose server "crashed" holding one task, its last beat written by `pid`. */
async function crashedWith(pid: number) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-recover-'));
  dirs.push(dataDir);
  const first = await startTestHost({ dataDir });
  const serverId = first.state.serverId;
  const profile = await readProperties(dataDir, String(first.state.runtime.config.profileId));
  await first.close();
  const store = await openStore(dataDir, profile);
  const deadWorker = `${serverId}:deadbeef`;
  await store.collection('tasks').insertOne({
    _id: 'orphan-task', jobId: 'no-such-job', taskId: 't', iteration: 0, name: 'noop', app: 'WorkFlowEngine', type: 'automatic',
    status: 'running', queuedAt: Date.now(), runAfter: Date.now(), workerId: deadWorker, attempt: 1, leaseUntil: Date.now() + 30_000, metrics: {},
  });
  await store.collection('wfe_workers').updateOne({ _id: serverId }, { $set: { heartbeatAt: Date.now(), pid, host: os.hostname() } });
  await store.close();
  return { dataDir, deadWorker };
}

const exitedPid = () =>
  new Promise<number>((resolve) => {
    const child = spawn(process.execPath, ['-e', '0']);
    child.on('exit', () => resolve(child.pid!));
  });

describe('restart after a crash', () => {
  it('re-queues the tasks of a dead run of this server at start, well before their lease ends', async () => {
    const { dataDir, deadWorker } = await crashedWith(await exitedPid());
    const started = Date.now();
    const host = await startTestHost({ dataDir });
    hosts.push(host);
    const record = await host.state.runtime.store.collection('tasks').findOne({ _id: 'orphan-task' });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(record?.workerId).not.toBe(deadWorker);
    // Queued again, or already claimed again by this run (a new attempt).
    expect(record?.status === 'queued' || (record?.attempt as number) > 1).toBe(true);
  });

  it('leaves the tasks of a live process with the same server id to their lease', async () => {
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      const { dataDir, deadWorker } = await crashedWith(live.pid!);
      const host = await startTestHost({ dataDir });
      hosts.push(host);
      const record = await host.state.runtime.store.collection('tasks').findOne({ _id: 'orphan-task' });
      expect(record).toMatchObject({ status: 'running', workerId: deadWorker });
    } finally {
      live.kill('SIGKILL');
    }
  });
});
