// The first rule for Automation Studio's project exports, as a property: a project export given fields
// of its own (on the project, on a component, in a component's document), with generated JSON values,
// imports with every component kept, and exports again with each added field where it was put.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callJson, startTestHost, type TestHost } from '../support/host';
import { corpus, fixtures, noteCorpusSkip } from '../support/iap';

noteCorpusSkip('unknown fields added to the real project export');

type Json = Record<string, unknown>;
type Project = { _id: string; name: string; components: (Json & { document?: Json })[] } & Json;
const SEED = Number(process.env.FUZZ_SEED ?? 2022);

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost();
}, 60_000);
afterAll(() => host?.dispose());

/** Where an added field goes: the project, a component, or a component's document. */
type Place = { on: 'project' } | { on: 'component' | 'document'; index: number };
const at = (project: Project, place: Place): Json => {
  if (place.on === 'project') return project;
  const component = project.components[place.index % project.components.length]!;
  return place.on === 'component' ? component : component.document!;
};

const extras = fc.array(
  fc.record({
    place: fc.oneof(fc.constant<Place>({ on: 'project' }), fc.record({ on: fc.constantFrom<'component' | 'document'>('component', 'document'), index: fc.nat() })),
    key: fc.stringMatching(/^[a-z][A-Za-z0-9_]{0,12}$/).map((k) => `siteExtra_${k}`),
    value: fc.jsonValue({ maxDepth: 3 }).map((v): unknown => JSON.parse(JSON.stringify(v))),
  }),
  { minLength: 1, maxLength: 4 },
);

describe.each([
  { source: fixtures, folder: 'Instance-Check-Example', file: 'Instance Check - Example.project.json' },
  { source: corpus, folder: 'Kentik-REST-Example', file: 'Kentik - Example - REST.project.json' },
])('unknown fields in the project $file $source.tag', ({ source, folder, file }) => {
  it.skipIf(!source.present)('imports with every component kept, and exports again with each added field where it was put', async () => {
    const exported = JSON.parse(readFileSync(path.join(source.prebuilt(folder), file), 'utf8')) as Project;
    await fc.assert(
      fc.asyncProperty(extras, async (added) => {
        const project = structuredClone(exported);
        // The last field put at a place under a key is the one kept.
        const expected = new Map<string, { place: Place; key: string; value: unknown }>();
        for (const extra of added) {
          at(project, extra.place)[extra.key] = extra.value;
          const where = extra.place.on === 'project' ? 'project' : `${extra.place.on} ${extra.place.index % project.components.length}`;
          expected.set(`${where} ${extra.key}`, extra);
        }
        const answer = await callJson(host, '/automation-studio/projects/import', { method: 'POST', json: { project } });
        expect([answer.status, answer.body.metadata?.failedComponents]).toEqual([200, []]);
        const again = await callJson(host, `/automation-studio/projects/${exported._id}/export`);
        expect(again.status).toBe(200);
        for (const [label, { place, key, value }] of expected) expect(at(again.body.data as Project, place)[key], label).toEqual(value);
      }),
      { seed: SEED, numRuns: 15 },
    );
  });
});
