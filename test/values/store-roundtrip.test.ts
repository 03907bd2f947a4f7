// Values through the real stores: encoded on the way in, decoded on the way out,
// on the embedded store and over the wire (jongodb test server).
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedStore } from '../../core/store/embedded/store';
import { openMongoStore } from '../../core/store/mongodb/store';
import type { Store } from '../../core/store/port';
import { getWorkflow, saveWorkflow } from '../../core/engine/workflow/repository';
import { Workflow } from '../../core/contract/workflows';
import { decodeVariables, encodeVariables } from '../../core/values/undefined-codec';
import { jongodbBinary, startJongodb, type TestMongo } from '../store/jongodb';

interface Backend {
  name: string;
  open(): Promise<{ store: Store; dispose(): Promise<void> }>;
  unavailable?: string;
}

let mongo: TestMongo | undefined;
const jongodb = jongodbBinary();
if ('unavailable' in jongodb) console.warn(`[values over the wire] skipped: ${jongodb.unavailable}`);

const backends: Backend[] = [
  {
    name: 'embedded store',
    async open() {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'values-'));
      const store = await openEmbeddedStore(dir);
      return { store, dispose: async () => { await store.close(); await rm(dir, { recursive: true, force: true }); } };
    },
  },
  {
    name: 'MongoDB adapter on jongodb',
    unavailable: 'unavailable' in jongodb ? jongodb.unavailable : undefined,
    async open() {
      const store = openMongoStore({ url: mongo!.url, db: `values_${Date.now()}` });
      return { store, dispose: () => store.close() };
    },
  },
];

beforeAll(async () => {
  if (!('unavailable' in jongodb)) mongo = await startJongodb();
}, 30_000);
afterAll(async () => mongo?.stop());

for (const backend of backends) {
  describe.skipIf(Boolean(backend.unavailable))(`values in the ${backend.name}`, () => {
    it('keeps undefined (nested, in arrays) apart from null, and reads legacy null as null', async () => {
      const { store, dispose } = await backend.open();
      try {
        const jobs = store.collection('jobs');
        const variables = { gone: undefined, kept: null, deep: { x: undefined, list: [1, undefined, null] } };
        const id = await jobs.insertOne({ name: 'wf', variables: encodeVariables(variables) });
        const legacyId = await jobs.insertOne({ name: 'wf', variables: { gone: null, deep: { x: null } } });

        const read = decodeVariables((await jobs.findOne({ _id: id }))!.variables as Record<string, unknown>);
        expect(read).toEqual(variables);
        expect(Object.keys(read)).toContain('gone');
        expect(read.gone).toBeUndefined();
        expect(read.kept).toBeNull();
        expect((read.deep as { list: unknown[] }).list).toEqual([1, undefined, null]);

        const legacy = decodeVariables((await jobs.findOne({ _id: legacyId }))!.variables as Record<string, unknown>);
        expect(legacy).toEqual({ gone: null, deep: { x: null } });
      } finally {
        await dispose();
      }
    });

    it('stores a workflow whose JSON Schema has $-keys and dotted keys, and reads it back unchanged', async () => {
      const { store, dispose } = await backend.open();
      try {
        const workflow = Workflow.parse({
          name: 'schema keys',
          tasks: {},
          transitions: { workflow_start: { workflow_end: { type: 'standard', state: 'success' } } },
          inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', $id: 'x', properties: { 'a.b': { type: 'string' } } },
        });
        await saveWorkflow(store, workflow);
        const back = await getWorkflow(store, 'schema keys');
        expect(back?.inputSchema).toEqual(workflow.inputSchema);
        expect(back?.transitions).toEqual(workflow.transitions);
      } finally {
        await dispose();
      }
    });
  });
}
