// The release semantics table and what each entry changes where the engine takes it: the codePointAt
// task, a child job's undefined variable, and the divergence rule that tells undefined from null.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SEMANTICS, RELEASE_SEMANTICS } from '../../core/release/semantics';
import { runBuiltInTask } from '../../core/engine/tasks/library';
import { childJobVariables, undefinedStoredAsNull } from '../../core/values/undefined-codec';
import { firstDivergence, sameValue } from '../../core/upgrade/rehearsal/divergence';
import type { TaskRecord } from '../../core/engine/queue/queue';

describe('release semantics', () => {
  it('defaults to 2022.1, which differs from nothing; each earlier release names its release-notes sections', () => {
    expect(DEFAULT_SEMANTICS).toBe(RELEASE_SEMANTICS['2022.1']);
    expect(DEFAULT_SEMANTICS.differences).toEqual([]);
    expect(RELEASE_SEMANTICS['2021.1'].differences.map((d) => d.section)).toEqual(['1.1 item 1', '1.1 item 4', '4.1 items 1-2; 7']);
    expect(RELEASE_SEMANTICS['2021.2'].differences.map((d) => d.section)).toEqual(['1.1 item 4', '4.1 items 1-2; 7']);
  });

  it('codePointAt out of range: an error in 2022.1 (and with no semantics), "" with 204 before', async () => {
    const incoming = { str: 'abc', pos: 3 };
    expect((await runBuiltInTask('codePointAt', incoming)).state).toBe('error');
    expect((await runBuiltInTask('codePointAt', incoming, { semantics: RELEASE_SEMANTICS['2022.1'] })).state).toBe('error');
    for (const release of ['2021.1', '2021.2'] as const) {
      expect(await runBuiltInTask('codePointAt', incoming, { semantics: RELEASE_SEMANTICS[release] })).toEqual({ state: 'success', outgoing: { codePointValue: '', status: 204 } });
    }
    // In range, every release answers the same.
    expect((await runBuiltInTask('codePointAt', { str: 'abc', pos: 1 }, { semantics: RELEASE_SEMANTICS['2021.2'] })).outgoing).toEqual({ codePointValue: 98 });
  });

  it('a child variable passed as undefined: null in 2022.1, undefined before; before 2021.1.10 stored as null', () => {
    const given = { a: undefined, nested: { b: undefined }, c: 1 };
    expect(childJobVariables(given, RELEASE_SEMANTICS['2022.1'].childUndefined)).toEqual({ a: null, nested: { b: null }, c: 1 });
    const kept = childJobVariables(given, RELEASE_SEMANTICS['2021.2'].childUndefined);
    expect('a' in kept && kept.a === undefined).toBe(true);
    expect(undefinedStoredAsNull(kept)).toEqual({ a: null, nested: { b: null }, c: 1 });
  });
});

const record = (taskId: string, outgoing: Record<string, unknown>, from: string[] = []): TaskRecord =>
  ({ _id: `j:${taskId}:0`, jobId: 'j', taskId, iteration: 0, name: taskId, app: 'WorkFlowEngine', type: 'automatic', status: 'complete', finishState: 'success', queuedAt: 0, runAfter: 0, attempt: 1, outgoing, from, metrics: {} });

describe('divergence', () => {
  it('tells undefined, null and a missing key apart, and equal values are the same (property)', () => {
    expect(sameValue({ a: undefined }, { a: null })).toBe(false);
    expect(sameValue({ a: undefined }, {})).toBe(false);
    fc.assert(fc.property(fc.jsonValue(), (value) => sameValue(value, structuredClone(value))));
  });

  it('is the first task along the path whose outgoing values differ', () => {
    const before = [record('a', { x: 1 }), record('b', { y: '~4undefined' }, ['j:a:0']), record('c', { z: 1 }, ['j:b:0'])];
    const after = [record('a', { x: 1 }), record('b', { y: null }, ['j:a:0']), record('c', { z: 2 }, ['j:b:0'])];
    expect(firstDivergence(before, after)).toMatchObject({ task: 'b', differs: ['outgoing'], before: { outgoing: { y: '~4undefined' } }, after: { outgoing: { y: null } } });
    expect(firstDivergence(before, before)).toBeUndefined();
  });
});
