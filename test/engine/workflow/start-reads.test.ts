// What a job start's check, `GET /workflows` and `GET /transformations?limit=1` read, counted by a
// spy on the store (documents each find/findOne returns, by collection), not timed: with many
// transformations stored, a start reads the ones its workflow (and the children it starts) name,
// the workflows list the ones its workflows name, and a page of transformations that page.
import { describe, expect, it } from 'vitest';
import type { Collection, Doc, Store } from '../../../core/store/port';
import { createWorkflowsService } from '../../../core/engine/workflow/service';
import { WorkflowWrites } from '../../../core/engine/workflow/writes';
import { createTransformationsService } from '../../../core/transformations/service';
import { withTempStore } from '../../store/support/temp-store';
import { workflow } from '../queue/support';

let store: Store;
withTempStore('start-reads-', (opened) => (store = opened.store));

/** The store, counting the documents its finds return per collection (whole, or projected). */
function spied(inner: Store) {
  const read = new Map<string, { whole: number; projected: number }>();
  const note = (name: string, count: number, projected: boolean) => {
    const seen = read.get(name) ?? { whole: 0, projected: 0 };
    if (projected) seen.projected += count;
    else seen.whole += count;
    read.set(name, seen);
  };
  const spy: Store = Object.create(inner) as Store;
  spy.collection = <T extends Doc>(name: string): Collection<T> => {
    const coll = inner.collection<T>(name);
    const wrapped = Object.create(coll) as Collection<T>;
    wrapped.find = async (filter, options) => {
      const docs = await coll.find(filter, options);
      note(name, docs.length, options?.projection !== undefined);
      return docs;
    };
    wrapped.findOne = async (filter, options) => {
      const doc = await coll.findOne(filter, options);
      note(name, doc ? 1 : 0, options?.projection !== undefined);
      return doc;
    };
    return wrapped;
  };
  return { store: spy, read: (name: string) => read.get(name) ?? { whole: 0, projected: 0 }, reset: () => read.clear() };
}

const STORED = 400;
const id = (n: number) => n.toString(16).padStart(24, '0');

async function fill() {
  const filler = 'x'.repeat(2_000);
  await store.collection('transformations').insertMany(
    Array.from({ length: STORED }, (_, n) => ({ _id: id(n), name: `JST ${String(n).padStart(3, '0')}`, description: n === 7 ? 'the needle' : filler, incoming: [], outgoing: [], steps: [] })),
  );
  const transform = (tr: string) => ({ name: 'transformation', type: 'operation', variables: { incoming: { tr_id: tr, variableMap: {} }, outgoing: {} } });
  const workflows = createWorkflowsService({ store: () => store, adapters: () => undefined, writes: () => new WorkflowWrites() });
  await workflows.importWorkflow(workflow('Child', { t: transform(id(2)) }, [['workflow_start', 't'], ['t', 'workflow_end']]));
  await workflows.importWorkflow(
    workflow('Parent', { t: transform(id(1)), c: { name: 'childJob', type: 'operation', variables: { incoming: { workflow: 'Child', variables: {} }, outgoing: {} } } }, [
      ['workflow_start', 't'],
      ['t', 'c'],
      ['c', 'workflow_end'],
    ]),
  );
  await workflows.importWorkflow(workflow('Lacks one', { t: transform(id(STORED + 1)) }, [['workflow_start', 't'], ['t', 'workflow_end']]));
}

describe('reads independent of the transformations stored beside', () => {
  it('a start reads the transformations its workflow and its children name; the list those its workflows name; a page that page', async () => {
    await fill();
    const spy = spied(store);
    const workflows = createWorkflowsService({ store: () => spy.store, adapters: () => undefined, writes: () => new WorkflowWrites() });

    // The check every job start makes (jobs.start's startCheck): the workflow, its child, their two transformations.
    await expect(workflows.assertStartable('Parent')).resolves.toBeUndefined();
    expect(spy.read('transformations')).toEqual({ whole: 0, projected: 2 });
    expect(spy.read('workflows').whole).toBe(2);
    spy.reset();
    await expect(workflows.assertStartable('Lacks one')).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining(id(STORED + 1)) });
    expect(spy.read('transformations')).toEqual({ whole: 0, projected: 0 });
    spy.reset();

    // GET /workflows: three workflows, the three transformations they name (one of them missing).
    const listed = await workflows.list();
    expect(listed.map((w) => [w.name, w.needs.map((n) => `${n.kind} ${n.name}`)])).toEqual([
      ['Child', []],
      ['Lacks one', [`transformation ${id(STORED + 1)}`]],
      ['Parent', []],
    ]);
    expect(spy.read('transformations').projected + spy.read('transformations').whole).toBeLessThanOrEqual(3);
    spy.reset();

    // GET /transformations?limit=1: one document read whole, the total counted.
    const transformations = createTransformationsService({ store: () => spy.store });
    const page = await transformations.list({ limit: 1 });
    expect(page.total).toBe(STORED);
    expect(page.results.map((d) => d.name)).toEqual(['JST 000']);
    expect(spy.read('transformations')).toEqual({ whole: 1, projected: 0 });
    // In the console's own file the page is found through an index by name, not by sorting every document.
    expect((await store.collection('transformations').listIndexes()).map((index) => index.key)).toContainEqual({ name: 1 });
    spy.reset();
    const later = await transformations.list({ skip: 10, limit: 2 });
    expect(later.results.map((d) => d.name)).toEqual(['JST 010', 'JST 011']);
    expect(spy.read('transformations').whole).toBe(2);
    spy.reset();

    // A search reads names and descriptions, and the matching page whole.
    const found = await transformations.list({ contains: 'NEEDLE', limit: 5 });
    expect(found).toMatchObject({ total: 1, results: [{ _id: id(7), name: 'JST 007' }] });
    expect(spy.read('transformations').whole).toBe(1);
  });
});
