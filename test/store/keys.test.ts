// Field names with "." or a leading "$" (job variables from operators) are stored
// and read back exactly on both adapters, never refused with a server error.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedStore } from '../../core/store/embedded/store';
import { openMongoStore } from '../../core/store/mongodb/store';
import type { Store } from '../../core/store/port';
import { Engine } from '../../core/engine/index';
import { decodeVariables } from '../../core/values/undefined-codec';
import { jongodbBinary, startJongodb, type TestMongo } from './jongodb';
import { jobErrorText } from '../../core/engine/jobs/job-error';

const found = jongodbBinary();
if ('unavailable' in found) console.warn(`[keys on jongodb] skipped: ${found.unavailable}`);

const variables = {
  'device.name': 'r1',
  $ref: '#/definitions/a',
  nested: { $in: [1, 2], 'a.b.c': { $set: true, '$': 'dollar', '.': 'dot' } },
  list: [{ 'x.y': 1 }, { $z: 2 }],
  '\uFF04escaped': 'a key already holding the escape character',
  plain: 'value',
};

function cases(name: string, open: () => Promise<Store>) {
  it(`${name}: inserts, updates and reads back keys with "." and "$" exactly`, async () => {
    const store = await open();
    const jobs = store.collection('jobs_keys');
    const id = await jobs.insertOne({ name: 'wf', variables });
    expect((await jobs.findOne({ _id: id }))?.variables).toEqual(variables);
    await jobs.updateOne({ _id: id }, { $set: { outgoing: { 'result.value': 1, $meta: { 'k.k': 'v' } }, status: 'complete' } });
    const back = await jobs.findOne({ _id: id });
    expect(back?.outgoing).toEqual({ 'result.value': 1, $meta: { 'k.k': 'v' } });
    expect(back?.variables).toEqual(variables);
    const [listed] = await jobs.find({ name: 'wf' });
    expect(listed?.variables).toEqual(variables);
    const claimed = await jobs.findOneAndUpdate({ _id: id }, { $set: { incoming: { '$x.y': 1 } } });
    expect(claimed?.incoming).toEqual({ '$x.y': 1 });
    await store.close();
  });

  it(`${name}: a job whose variables are named with "." and "$" runs, and its variables read back exactly`, async () => {
    const store = await open();
    const suffix = Math.random().toString(36).slice(2, 8);
    await store.collection('workflows').insertOne({
      name: `keys-${suffix}`,
      tasks: {
        workflow_start: { name: 'workflow_start' },
        workflow_end: { name: 'workflow_end' },
        up: { name: 'toUpperCase', app: 'WorkFlowEngine', type: 'automatic', variables: { incoming: { str: '$var.job.plain' }, outgoing: { uppercaseString: '$var.job.device.upper' } } },
      },
      transitions: { workflow_start: { up: { type: 'standard', state: 'success' } }, up: { workflow_end: { type: 'standard', state: 'success' } } },
    });
    const engine = new Engine({ store, serverId: 'keys', serverName: 'keys', processTasksOnStart: true, worker: { idleMs: 10 } });
    await engine.open();
    try {
      const started = await engine.runner.start(`keys-${suffix}`, { variables });
      for (let i = 0; i < 400 && (await engine.runner.job(started._id))?.status === 'running'; i++) await new Promise((r) => setTimeout(r, 25));
      const job = (await engine.runner.job(started._id))!;
      expect(job.status, jobErrorText(job)).toBe('complete');
      const read = decodeVariables(job.variables);
      // The service's own job variables (_id, initiator) stand beside the ones given.
      expect({ ...read, 'device.upper': undefined }).toEqual({ ...variables, 'device.upper': undefined, _id: started._id, initiator: expect.any(String) });
      expect(Object.values(read)).toContain('VALUE');
    } finally {
      await engine.close();
      await store.close();
    }
  });
}

describe('keys with "." and a leading "$"', () => {
  let dir: string;
  let mongo: TestMongo | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'keys-'));
    if (!('unavailable' in found)) mongo = await startJongodb();
  }, 30_000);
  afterAll(async () => {
    await mongo?.stop();
    await rm(dir, { recursive: true, force: true });
  });
  cases('embedded store', () => openEmbeddedStore(dir));
  describe.skipIf('unavailable' in found)('over the wire', () => {
    cases('MongoDB adapter on jongodb', async () => openMongoStore({ url: mongo!.url, db: 'keys' }));
  });
});
