// Two consoles on one database (a primary site and its DR standby): each lists
// both, with whether it works tasks, so an operator sees at once if both do.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeJsonAtomic } from '../../../core/files/atomic';
import { propertiesFile } from '../../../core/profiles/directory';
import { startTestHost, type TestHost } from '../../support/host';
import { jongodbBinary, startJongodb, type TestMongo } from '../../store/jongodb';

const found = jongodbBinary();
if ('unavailable' in found) console.warn(`[two sites on one database] skipped: ${found.unavailable}`);

describe.skipIf('unavailable' in found)('two sites on one database', () => {
  let mongo: TestMongo;
  const hosts: TestHost[] = [];
  const dirs: string[] = [];
  beforeAll(async () => {
    mongo = await startJongodb();
    for (const [id, works] of [
      ['primary', true],
      ['dr-standby', false],
    ] as const) {
      const dataDir = await mkdtemp(path.join(os.tmpdir(), `console-${id}-`));
      dirs.push(dataDir);
      await writeJsonAtomic(propertiesFile(dataDir, id), { id, serverName: `${id}-01`, processTasksOnStart: works, mongoProps: { url: mongo.url, db: 'shared' } });
      hosts.push(await startTestHost({ dataDir }));
    }
  });
  afterAll(async () => {
    for (const host of hosts) await host.dispose();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    await mongo?.stop();
  });

  const status = async (host: TestHost) => (await (await host.api('/workflow_engine/workers/status')).json()) as {
    taskWorker: { running: boolean; clusterValue: string; localValue: string; startupValue: boolean };
    servers: { serverName: string; taskWorker: boolean; alive: boolean; self: boolean }[];
  };
  const working = (s: Awaited<ReturnType<typeof status>>) => s.servers.filter((x) => x.alive && x.taskWorker).map((x) => x.serverName).sort();

  it('each console lists both servers and which of them works tasks', async () => {
    const [primary, standby] = hosts as [TestHost, TestHost];
    const fromStandby = await status(standby);
    expect(fromStandby.taskWorker).toEqual({ running: false, clusterValue: 'not defined', localValue: 'disabled', startupValue: false });
    expect(fromStandby.servers.map((s) => [s.serverName, s.taskWorker, s.self]).sort()).toEqual([
      ['dr-standby-01', false, true],
      ['primary-01', true, false],
    ]);
    expect(working(await status(primary))).toEqual(['primary-01']);

    // The standby's worker started by mistake: the primary sees two sites working tasks.
    await standby.api('/workflow_engine/taskWorker/activate', { method: 'POST' });
    expect(working(await status(primary))).toEqual(['dr-standby-01', 'primary-01']);
    await standby.api('/workflow_engine/taskWorker/deactivate', { method: 'POST' });
    expect(working(await status(primary))).toEqual(['primary-01']);
  });
});
