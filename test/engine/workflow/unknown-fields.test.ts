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

/** How one kind of export is saved and read back over HTTP. */
interface Kind {
  places(doc: Json): string[][];
  /** The export under a name and id of its own, so each run saves a new document. */
  renamed(doc: Json, n: number): { doc: Json; id: string };
  save: string;
  read(id: string): string;
  /** What else must hold of the document read back (`copy` as saved, `original` as exported). */
  check?(back: Json, copy: Json, original: Json): Promise<void>;
}

/** Each document of `documents`, given generated fields, is saved, and read back with each of them where it was put. */
async function keepsExtras(host: TestHost, documents: IapFile[], kind: Kind) {
  let n = 0;
  await fc.assert(
    fc.asyncProperty(fc.nat({ max: documents.length - 1 }), extrasArbitrary, async (pick, extras) => {
      const original = documents[pick]!.doc;
      const { doc, id } = kind.renamed(original, n++);
      const { copy, put } = withExtras(doc, kind.places(original), extras);
      const saved = await host.api(kind.save, { method: 'POST', json: copy });
      expect(saved.status, await saved.clone().text()).toBe(201);
      const back = (await (await host.api(kind.read(id))).json()) as Json;
      for (const { path, key, value } of put) expect(at(back, path)[key], `${id}: ${[...path, key].join('.')}`).toEqual(value);
      await kind.check?.(back, copy, original);
    }),
    { seed: SEED, numRuns: 40 },
  );
}

describe.each([fixtures, corpus])('unknown fields in exports $tag', (source) => {
  let host: TestHost;
  beforeAll(async () => {
    if (source.present) host = await startTestHost();
  });
  afterAll(() => host?.dispose());

  it.skipIf(!source.present)('a workflow export with fields of its own imports as exported, keeps them, and warns of nothing new', async () => {
    await keepsExtras(host, source.workflows(), {
      places: workflowPlaces,
      renamed: (doc, n) => {
        const { _id: _exported, ...rest } = doc;
        const name = `${String(doc.name)} (extra ${n})`;
        return { doc: { ...rest, name }, id: name };
      },
      save: '/workflows',
      read: (name) => `/workflows/${encodeURIComponent(name)}`,
      check: async (back) => expect(back.warnings, String(back.name)).toEqual([]),
    });
  });

  it.skipIf(!source.present)('a JST document with fields of its own imports, keeps them, and runs as the export does', async () => {
    // Oracle: the export itself, saved under its own id, run on the same (empty) incoming values.
    for (const { doc } of source.transformations()) expect((await host.api('/transformations?overwrite=true', { method: 'POST', json: doc })).status).toBe(201);
    const run = async (id: string) => {
      const answer = await host.api(`/transformations/${encodeURIComponent(id)}/run`, { method: 'POST', json: { incoming: {} } });
      return { status: answer.status, outgoing: answer.status === 200 ? ((await answer.json()) as Json).outgoing : undefined };
    };
    await keepsExtras(host, source.transformations(), {
      places: jstPlaces,
      renamed: (doc, n) => {
        const id = `${String(doc._id ?? 'jst').slice(0, 12)}extra${n}`;
        return { doc: { ...doc, _id: id, name: `${String(doc.name)} (extra ${n})` }, id };
      },
      save: '/transformations',
      read: (id) => `/transformations/${encodeURIComponent(id)}`,
      check: async (back, _copy, original) => expect(await run(String(back._id))).toEqual(await run(String(original._id))),
    });
  });
});
