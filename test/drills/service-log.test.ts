// A drill whose report cannot be saved goes on: the failure is logged through the service's
// logger with the drill's id, and the live report is still answered.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDrillsService } from '../../core/drills/service';
import { createDrillRun } from '../../core/drills/runner';
import { openStore } from '../../core/store/open';
import type { Store } from '../../core/store/port';

let dataDir: string;
let store: Store;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'drills-log-'));
  store = await openStore(dataDir, { id: 'drills' });
  // A closed store refuses every write, as one whose disk went away does.
  await store.close();
});

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

it('a report that cannot be saved is logged with the drill id, and the drill is still answered', async () => {
  const logged: { msg: string; drill?: string }[] = [];
  const log = pino({}, { write: (line: string) => void logged.push(JSON.parse(line)) });
  let finish = () => {};
  const ended = new Promise<void>((resolve) => (finish = resolve));
  const drills = createDrillsService({
    store: () => store,
    log,
    run: async (options, onChange = () => undefined) => {
      const run = createDrillRun('lab', options, onChange);
      run.changed();
      await ended;
      run.judge();
      return run.report;
    },
  });
  const first = await drills.startLab({ jobs: 1, failure: 'kill', failback: false });
  await expect.poll(() => logged.length).toBeGreaterThan(0);
  expect(logged[0]).toMatchObject({ drill: first.id, msg: expect.stringContaining(`drill ${first.id}: saving its report failed`) });
  expect((await drills.get(first.id)).status).toBe('running');
  finish();
  await expect.poll(() => logged.map((l) => l.msg)).toContainEqual(expect.stringContaining(`drill ${first.id}: saving its final report failed`));
});
