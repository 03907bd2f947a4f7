// The transformation task: tr_id, variableMap and options as the service's
// workflows write them; outgoing values by the document's outgoing $id.
import { describe, expect, it } from 'vitest';
import { missingTransformations, runTransformationTask, transformationRunner, transformationTaskOutcome, TransformationTaskError } from '../../core/transformations/task';
import type { JstDocument } from '../../core/transformations/types';
import { corpus, fixtures, noteCorpusSkip } from './corpus';

const tagDoc: JstDocument = {
  _id: '63e3a39ed59d6601415e4e09',
  name: 'tag',
  incoming: [{ $id: 'name', type: 'string' }],
  outgoing: [{ $id: 'tag', type: 'object' }],
  steps: [{ id: 1, type: 'assign', from: { location: 'incoming', name: 'name', ptr: '' }, to: { location: 'outgoing', name: 'tag', ptr: '/Value' } }],
};
const resolve = (id: string) => (id === tagDoc._id ? tagDoc : null);

describe('runTransformationTask', () => {
  it('answers the outgoing values by $id (extractOutput: the value itself)', async () => {
    const out = await runTransformationTask({ tr_id: tagDoc._id, variableMap: { name: 'web' }, options: { extractOutput: true, validateIncoming: true } }, resolve);
    expect(out).toEqual({ tag: { Value: 'web' } });
  });

  it('keeps the wrapper object when extractOutput is false and there is one outgoing schema', async () => {
    const out = await runTransformationTask({ tr_id: tagDoc._id, variableMap: { name: 'web' }, options: { extractOutput: false } }, resolve);
    expect(out).toEqual({ tag: { tag: { Value: 'web' } } });
  });

  it('checks incoming values only when validateIncoming is not false', async () => {
    await expect(runTransformationTask({ tr_id: tagDoc._id, variableMap: { name: 5 }, options: { validateIncoming: true } }, resolve)).rejects.toThrow('incoming.name must be string');
    await expect(runTransformationTask({ tr_id: tagDoc._id, variableMap: { name: 5 }, options: { validateIncoming: false } }, resolve)).resolves.toEqual({ tag: { Value: 5 } });
  });

  it('a missing document is a missing part, named, not a crash', async () => {
    const error = await runTransformationTask({ tr_id: 'nope', variableMap: {} }, resolve).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransformationTaskError);
    expect((error as TransformationTaskError).kind).toBe('missing');
    expect(await transformationTaskOutcome({ tr_id: 'nope' }, resolve)).toEqual({ state: 'error', outgoing: {}, error: expect.stringContaining('no transformation with _id "nope"') });
  });

  it('refuses a task without tr_id, or with a variableMap or options of the wrong shape', async () => {
    await expect(runTransformationTask({ variableMap: {} }, resolve)).rejects.toThrow('`tr_id` must name a transformation');
    await expect(runTransformationTask({ tr_id: tagDoc._id, variableMap: [] }, resolve)).rejects.toThrow('`variableMap` must be an object');
    await expect(runTransformationTask({ tr_id: tagDoc._id, options: { extractOutput: 'yes' } }, resolve)).rejects.toThrow('options.extractOutput must be true or false');
  });

  it('a failing step makes an error outcome naming the step', async () => {
    const doc: JstDocument = { _id: 'p', name: 'parse', incoming: [{ $id: 's' }], outgoing: [{ $id: 'v' }], steps: [
      { id: 3, type: 'method', library: 'JSON', method: 'parse', args: [null] },
      { id: 4, type: 'assign', from: { location: 'incoming', name: 's', ptr: '' }, to: { location: 'method', name: 3, ptr: '/args/0/value' } },
      { id: 5, type: 'assign', from: { location: 'method', name: 3, ptr: '/return' }, to: { location: 'outgoing', name: 'v', ptr: '' } },
    ] };
    const outcome = await transformationTaskOutcome({ tr_id: 'p', variableMap: { s: '{' } }, () => doc);
    expect(outcome.state).toBe('error');
    expect(outcome.error).toContain('transformation "parse", step 3 (JSON.parse)');
  });

  it("the engine's runner hands a childJob element to a document's one incoming variable", async () => {
    const runner = transformationRunner(resolve);
    expect(await runner.run({ tr_id: tagDoc._id!, variableMap: { currentValue: 'web' }, options: {} })).toEqual({ tag: { Value: 'web' } });
    expect(await runner.run({ tr_id: tagDoc._id!, variableMap: { name: 'db' }, options: {} })).toEqual({ tag: { Value: 'db' } });
  });

  it('lists the transformations a workflow names that are not stored', async () => {
    const workflow = { tasks: {
      a1: { name: 'transformation', variables: { incoming: { tr_id: 'stored' } } },
      b2: { name: 'transformation', variables: { incoming: { tr_id: 'gone' } } },
      c3: { name: 'query', variables: { incoming: { tr_id: 'ignored' } } },
    } };
    expect(await missingTransformations(workflow, (id) => id === 'stored')).toEqual([{ task: 'b2', tr_id: 'gone' }]);
  });
});

noteCorpusSkip('the transformation tasks of the real exports');

describe.each([
  { source: fixtures, least: 3 },
  { source: corpus, least: 11 },
])('the transformation tasks of the exported workflows $source.tag', ({ source, least }) => {
  it.skipIf(!source.present)("every task's variableMap names incoming values of its document, and its outgoing map names outgoing values", () => {
    const docs = new Map(source.transformations().map(({ doc }) => [doc._id, doc]));
    let checked = 0;
    for (const { file, doc: workflow } of source.workflows()) {
      for (const [taskId, task] of Object.entries(workflow.tasks as Record<string, Record<string, unknown>>)) {
        if (task.name !== 'transformation') continue;
        const vars = task.variables as { incoming: { tr_id: string; variableMap: Record<string, unknown> }; outgoing: Record<string, unknown> };
        const doc = docs.get(vars.incoming.tr_id);
        if (!doc) continue; // a document of another pre-built: listed as a missing part, tested above
        const incoming = doc.incoming.map((s) => s.$id);
        const outgoing = doc.outgoing.map((s) => s.$id);
        for (const name of Object.keys(vars.incoming.variableMap ?? {})) expect(incoming, `${file} task ${taskId}`).toContain(name);
        for (const name of Object.keys(vars.outgoing ?? {})) if (name !== 'error') expect(outgoing, `${file} task ${taskId}`).toContain(name);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(least);
  });
});
