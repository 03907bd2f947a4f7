// A profile whose MongoDB does not answer still opens: the applications that need the store are
// DEAD naming it, and the adapters say their service configs cannot be read.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { writeJsonAtomic } from '../../core/files/atomic';
import { propertiesFile } from '../../core/profiles/directory';
import { startTestHost, type TestHost } from '../support/host';
import { waitFor } from '../adapters/support';

let dataDir: string;
let host: TestHost;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-store-down-'));
  // Port 1 on this machine refuses at once; a short server selection keeps the test quick.
  await writeJsonAtomic(propertiesFile(dataDir, 'down'), { id: 'down', mongoProps: { url: 'mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=500', db: 'automation' } });
  host = await startTestHost({ dataDir });
});
afterAll(async () => {
  await host.close();
  await rm(dataDir, { recursive: true, force: true });
});

it('opens, with WorkFlowEngine DEAD naming the store and the adapters saying why none runs', async () => {
  const engine = await waitFor(async () => {
    const item = (await (await host.api('/health/applications/WorkFlowEngine')).json()).results[0];
    return item.state === 'DEAD' && item;
  }, 'WorkFlowEngine DEAD');
  expect(engine.detail).toContain('the store does not answer');
  expect((await (await host.api('/health/applications/MOP')).json()).results[0].state).toBe('RUNNING');
  const packages = await waitFor(async () => {
    const body = await (await host.api('/adapter-packages')).json();
    return body.problems.length > 0 && body;
  }, 'the adapters to report the store');
  expect(packages.problems[0]).toContain('the service configs cannot be read from the store, so no adapter runs');
});
