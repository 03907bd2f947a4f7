// An adapter package installed into the profile's sdk_dir while the console runs is found by a
// rescan (GET /adapter-packages?rescan=true, what the Adapters page does), without a restart;
// an instance of it can be created then.
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeJsonAtomic } from '../../core/files/atomic';
import { propertiesFile } from '../../core/profiles/directory';
import { startTestHost, type TestHost } from '../support/host';
import { INVENTORY } from './support';

let dataDir: string;
let scope: string;
let host: TestHost;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-rescan-'));
  const sdk = path.join(dataDir, 'sdk');
  scope = path.join(sdk, 'node_modules', '@itentialopensource');
  await mkdir(scope, { recursive: true });
  await writeJsonAtomic(propertiesFile(dataDir, 'site'), { id: 'site', pathProps: { sdk_dir: sdk } });
  host = await startTestHost({ dataDir });
});
afterAll(async () => {
  await host?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const names = (body: { results: { name: string }[] }) => body.results.map((p) => p.name);

describe('rescanning sdk_dir', () => {
  it('finds a package installed after the console started, and its type can be used at once', async () => {
    const before = await (await host.api('/adapter-packages')).json();
    expect(names(before)).not.toContain('@itentialopensource/adapter-inventory');
    const config = { id: 'inv', type: 'Inventory', properties: { host: '127.0.0.1', port: 1, stub: true }, brokers: [], groups: [] };
    const created = await host.api('/adapters', { method: 'POST', json: { properties: config } });
    // Without its package the type is refused, naming the field.
    expect(created.status).toBe(400);
    expect((await created.json()).issues[0].path).toBe('body.properties.type');

    await symlink(INVENTORY, path.join(scope, 'adapter-inventory'));
    // A plain listing is what the console found at start; the rescan sees the new package.
    expect(names(await (await host.api('/adapter-packages')).json())).not.toContain('@itentialopensource/adapter-inventory');
    const rescanned = await (await host.api('/adapter-packages?rescan=true')).json();
    expect(names(rescanned)).toContain('@itentialopensource/adapter-inventory');
    expect(rescanned.added).toEqual(['@itentialopensource/adapter-inventory']);
    expect((await (await host.api('/adapter-packages?rescan=true')).json()).added).toEqual([]);

    // Now an instance of it can be created, with no restart.
    const again = await host.api('/adapters', { method: 'POST', json: { properties: config } });
    expect(again.status).toBeLessThan(300);
    const health = await (await host.api('/health/adapters/inv')).json();
    expect(health.results[0].package_id).toBe('@itentialopensource/adapter-inventory');
  });
});
