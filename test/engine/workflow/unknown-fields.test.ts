// The first rule, as a property: a real export is never refused for carrying more than the console
// uses, and what it carries is kept. Each workflow and JST document of the project's fixtures (and
// of the real exports, when they are there) is given fields no release of the service writes, at
// generated places (the document, a task, a task's variables, a transition; a JST's step or
// incoming schema) with generated JSON values; it imports as the export does, with no new warning,
// and reads back with every added field where it was put.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../../support/host';
import { corpus, fixtures, noteCorpusSkip, type IapFile } from '../../support/iap';

noteCorpusSkip('unknown fields added to the real exports');

type Json = Record<string, unknown>;
const SEED = Number(process.env.FUZZ_SEED ?? 2022);

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The objects of a workflow export that may carry fields of their own: the document, its tasks, their variables, its transitions. */
function workflowPlaces(doc: Json): string[][] {
  const places: string[][] = [[]];
  for (const [id, task] of Object.entries(isObject(doc.tasks) ? doc.tasks : {})) {
    if (!isObject(task)) continue;
    places.push(['tasks', id]);
    if (isObject(task.variables)) places.push(['tasks', id, 'variables']);
  }
  for (const [from, targets] of Object.entries(isObject(doc.transitions) ? doc.transitions : {})) {
    for (const [to, transition] of Object.entries(isObject(targets) ? targets : {})) if (isObject(transition)) places.push(['transitions', from, to]);
  }
  return places;
}

/** The objects of a JST document that may carry fields of their own: the document, its steps, its incoming and outgoing schemas. */
function jstPlaces(doc: Json): string[][] {
  const places: string[][] = [[]];
  for (const list of ['steps', 'incoming', 'outgoing']) {
    const items = doc[list];
    if (Array.isArray(items)) items.forEach((item, i) => isObject(item) && places.push([list, String(i)]));
  }
  return places;
}

const at = (doc: unknown, path: string[]): Json => {
  const found = path.reduce<unknown>((value, key) => (isObject(value) || Array.isArray(value) ? (value as Json)[key] : undefined), doc);
  if (!isObject(found)) throw new Error(`no object at ${path.join('.')}`);
  return found;
};

/** A field no release of the service writes (a vendor's or a site's own), with any JSON value. */
const extraField = fc.record({
  key: fc.stringMatching(/^[a-z][A-Za-z0-9_]{0,12}$/).map((k) => `siteExtra_${k}`),
  value: fc.jsonValue({ maxDepth: 3 }),
});

/** `doc` with each extra field put at its place (a place picked by index among `places`). */
function withExtras(doc: Json, places: string[][], extras: { place: number; key: string; value: unknown }[]) {
  const copy = structuredClone(doc);
  const put: { path: string[]; key: string; value: unknown }[] = [];
  for (const extra of extras) {
    const path = places[extra.place % places.length]!;
    // JSON's own value: what the body carries over HTTP (-0 is written 0).
    const value: unknown = JSON.parse(JSON.stringify(extra.value));
    at(copy, path)[extra.key] = value;
    put.push({ path, key: extra.key, value });
  }
  return { copy, put };
}

const extrasArbitrary = fc.array(fc.record({ place: fc.nat(), key: extraField.map((f) => f.key), value: extraField.map((f) => f.value) }), { minLength: 1, maxLength: 4 });

describe.each([fixtures, corpus])('unknown fields in exports $tag', (source) => {
  let host: TestHost;
  beforeAll(async () => {
    if (source.present) host = await startTestHost();
  });
  afterAll(() => host?.dispose());

  it.skipIf(!source.present)('a workflow export with fields of its own imports as exported, keeps them, and warns of nothing new', async () => {
    const workflows: IapFile[] = source.workflows();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: workflows.length - 1 }), extrasArbitrary, async (pick, extras) => {
        const { doc } = workflows[pick]!;
        const name = `${String(doc.name)} (extra ${n++})`;
        const { copy, put } = withExtras({ ...doc, name }, workflowPlaces(doc), extras);
        delete copy._id;
        const saved = await host.api('/workflows', { method: 'POST', json: copy });
        expect(saved.status, await saved.clone().text()).toBe(201);
        const back = (await (await host.api(`/workflows/${encodeURIComponent(name)}`)).json()) as Json;
        expect(back.warnings, name).toEqual([]);
        for (const { path, key, value } of put) expect(at(back, path)[key], `${name}: ${[...path, key].join('.')}`).toEqual(value);
      }),
      { seed: SEED, numRuns: 40 },
    );
  });

  it.skipIf(!source.present)('a JST document with fields of its own imports, keeps them, and runs as before', async () => {
    const documents: IapFile[] = source.transformations();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: documents.length - 1 }), extrasArbitrary, async (pick, extras) => {
        const { doc } = documents[pick]!;
        const _id = `${String(doc._id ?? 'jst').slice(0, 12)}extra${n++}`;
        const { copy, put } = withExtras({ ...doc, _id, name: `${String(doc.name)} (extra ${n})` }, jstPlaces(doc), extras);
        const saved = await host.api('/transformations', { method: 'POST', json: copy });
        expect(saved.status, await saved.clone().text()).toBe(201);
        const back = (await (await host.api(`/transformations/${encodeURIComponent(_id)}`)).json()) as Json;
        for (const { path, key, value } of put) expect(at(back, path)[key], `${_id}: ${[...path, key].join('.')}`).toEqual(value);
      }),
      { seed: SEED, numRuns: 40 },
    );
  });
});
