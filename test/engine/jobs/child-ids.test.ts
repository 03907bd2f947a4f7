// A child job's id. Oracle: the service's job ids, ObjectIds (24 hex digits, the first 8 the
// creation time in seconds: bson's ObjectId.getTimestamp reads it back); derived from the task run
// so a run started again after a crash finds the child it started.
import { ObjectId } from 'bson';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { childJobId, loopChildId } from '../../../core/engine/jobs/children';

const run = fc.record({
  _id: fc.string({ minLength: 1 }),
  attempt: fc.integer({ min: 1, max: 50 }),
  queuedAt: fc.integer({ min: 0, max: 4_000_000_000_000 }),
  metrics: fc.record({ start_time: fc.integer({ min: 0, max: 4_000_000_000_000 }) }),
});

describe('child job ids', () => {
  it('are ObjectIds whose time is the task run\'s start, the same for the same run', () => {
    fc.assert(
      fc.property(run, (record) => {
        const id = childJobId(record);
        expect(id).toMatch(/^[0-9a-f]{24}$/);
        expect(ObjectId.isValid(id)).toBe(true);
        expect(new ObjectId(id).getTimestamp().getTime()).toBe(Math.floor(record.metrics.start_time / 1000) * 1000);
        expect(childJobId({ ...record })).toBe(id);
        expect(childJobId({ ...record, attempt: record.attempt + 1 })).not.toBe(id);
      }),
    );
  });

  it("of a loop: ObjectIds of the run's time, distinct, in data_array's order", () => {
    fc.assert(
      fc.property(run, fc.integer({ min: 1, max: 10_000 }), (record, length) => {
        const base = childJobId(record);
        const picks = [0, 1, Math.floor(length / 2), length - 2, length - 1].filter((i) => i >= 0 && i < length);
        const ids = [...new Set(picks)].sort((a, b) => a - b).map((i) => loopChildId(base, i));
        for (const id of ids) expect(id).toMatch(/^[0-9a-f]{24}$/);
        expect(new Set([base, ...ids]).size).toBe(ids.length + 1);
        expect([...ids].sort()).toEqual(ids);
        expect(ids.every((id) => id.slice(0, 8) === base.slice(0, 8))).toBe(true);
      }),
    );
  });

  it('a later run sorts after an earlier one (time first)', () => {
    const earlier = childJobId({ _id: 'j:b:0', attempt: 1, queuedAt: 0, metrics: { start_time: 1_700_000_000_000 } });
    const later = childJobId({ _id: 'j:a:0', attempt: 1, queuedAt: 0, metrics: { start_time: 1_700_000_001_000 } });
    expect(earlier < later).toBe(true);
  });

  it('a child named by an earlier version (not an ObjectId) keeps its loop children\'s names', () => {
    expect(loopChildId('j1:kid:0:1', 2)).toBe('j1:kid:0:1:2');
  });
});
