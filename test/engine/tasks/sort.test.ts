// The sort task as its page documents it (docs.itential.com/docs/sort-array-task-1): arr, key (an
// object property to sort by), limit (how many to return) and reverse (descending) → response.
// Beside the page's examples, JavaScript's own Array.prototype.sort is the oracle for the order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runBuiltInTask } from '../../../core/engine/tasks/library';

const sort = async (incoming: Record<string, unknown>) => runBuiltInTask('sort', incoming, {});

describe('sort', () => {
  it("sorts objects by key with a limit, upper case first (the page's first example)", async () => {
    const arr = [{ name: 'cat' }, { name: 'dog' }, { name: 'hamster' }, { name: 'ant' }, { name: 'Lion' }];
    expect(await sort({ arr, key: 'name', limit: 4, reverse: false })).toEqual({
      state: 'success',
      outgoing: { response: [{ name: 'Lion' }, { name: 'ant' }, { name: 'cat' }, { name: 'dog' }] },
    });
  });

  it("sorts by key alphabetically with no limit (the page's second example), and descending when reverse", async () => {
    const arr = [{ car: 'Audi' }, { car: 'Volvo' }, { car: 'Honda' }, { car: 'BMW' }];
    expect((await sort({ arr, key: 'car', reverse: false })).outgoing.response).toEqual([{ car: 'Audi' }, { car: 'BMW' }, { car: 'Honda' }, { car: 'Volvo' }]);
    expect((await sort({ arr, key: 'car', reverse: true })).outgoing.response).toEqual([{ car: 'Volvo' }, { car: 'Honda' }, { car: 'BMW' }, { car: 'Audi' }]);
    // The array given is left as it was.
    expect(arr.map((a) => a.car)).toEqual(['Audi', 'Volvo', 'Honda', 'BMW']);
  });

  it('names the argument that is wrong', async () => {
    expect(await sort({ arr: 'abc' })).toMatchObject({ state: 'error', error: 'sort: arr must be an array, got "abc"' });
    expect(await sort({ arr: [1], reverse: 'yes' })).toMatchObject({ state: 'error', error: expect.stringContaining('reverse must be true or false') });
    expect(await sort({ arr: [1], limit: 'many' })).toMatchObject({ state: 'error', error: expect.stringContaining('limit must be a number') });
  });

  it('orders as JavaScript does: numbers by value, anything else as text (oracle: Array.prototype.sort)', async () => {
    const item = fc.oneof(fc.string({ maxLength: 4 }), fc.integer({ min: -50, max: 50 }), fc.boolean(), fc.constant(null));
    await fc.assert(
      fc.asyncProperty(fc.array(item, { maxLength: 12 }), fc.boolean(), fc.option(fc.nat(14), { nil: undefined }), async (arr, reverse, limit) => {
        const numeric = arr.every((x) => typeof x === 'number');
        const expected = numeric ? [...arr].sort((a, b) => (a) - (b)) : [...arr].sort();
        if (reverse) expected.reverse();
        const { outgoing } = await sort({ arr, reverse, limit });
        // Equal texts may keep either order reversed; compare the texts in order.
        expect((outgoing.response as unknown[]).map(String)).toEqual(expected.slice(0, limit ?? expected.length).map(String));
      }),
    );
  });
});
