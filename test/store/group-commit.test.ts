// Group commit (database.ts): transactions asked for together commit together, the first of a group
// without a savepoint of its own. One that fails is rolled back alone wherever it stands in its group:
// the first rolls the transaction back (it held only its writes) and those after it commit in the next.
import { describe, expect, it } from 'vitest';
import type { EmbeddedStore } from '../../core/store/embedded/store';
import { withTempStore } from './support/temp-store';

let store: EmbeddedStore;
withTempStore('group-commit-', (opened) => ({ store } = opened), { each: true });

/** `n` transactions asked for in one turn, each inserting its job; those in `failing` throw after their write. */
function together(n: number, failing: number[]) {
  return Promise.allSettled(
    Array.from({ length: n }, (_, i) =>
      store.transaction!(async (tx) => {
        await tx.collection('jobs').insertOne({ _id: `j${i}` });
        if (failing.includes(i)) throw new Error(`transaction ${i} failed`);
        return i;
      }),
    ),
  );
}
const stored = async () => (await store.collection('jobs').find({}, { sort: { _id: 1 } })).map((j) => j._id);

describe('group commit', () => {
  it('the first transaction of a group failing leaves only its writes out; the others are answered and kept', async () => {
    const results = await together(6, [0]);
    expect(results.map((r) => r.status)).toEqual(['rejected', ...Array(5).fill('fulfilled')]);
    expect(await stored()).toEqual(['j1', 'j2', 'j3', 'j4', 'j5']);
  });

  it('a lone failing transaction writes nothing, and the store takes the next one', async () => {
    expect((await together(1, [0]))[0]?.status).toBe('rejected');
    await store.transaction!((tx) => tx.collection('jobs').insertOne({ _id: 'after' }));
    expect(await stored()).toEqual(['after']);
  });

  it('the first and a later one failing: each rolled back alone', async () => {
    const results = await together(5, [0, 3]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(await stored()).toEqual(['j1', 'j2', 'j4']);
  });
});
