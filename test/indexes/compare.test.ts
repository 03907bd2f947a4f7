// Declared against listed indexes, the cases a build must tell apart.
import { describe, expect, it } from 'vitest';
import { compareIndexes } from '../../core/indexes/compare';
import type { DeclaredIndex } from '../../core/indexes/declared';

const declared = (key: Record<string, 1 | -1>, name: string, unique = false): DeclaredIndex => ({ key, name, unique, purpose: '', query: { filter: {} } });
const ID = { key: { _id: 1 as const }, name: '_id_' };

describe('compareIndexes', () => {
  const byName = declared({ name: 1 }, 'name_1', true);
  const byStatus = declared({ status: 1, 'metrics.start_time': -1 }, 'status_1_metrics.start_time_-1');

  it('never counts the _id_ index', () => {
    expect(compareIndexes([], [ID])).toEqual({ current: [], missing: [], misnamed: [], external: [] });
  });

  it('takes an index as declared only with the same key order, directions, name and unique flag', () => {
    const result = compareIndexes([byName, byStatus], [ID, { key: { name: 1 }, name: 'name_1', unique: true }, { key: { 'metrics.start_time': -1, status: 1 }, name: 'status_1_metrics.start_time_-1' }]);
    expect(result.current.map((i) => i.name)).toEqual(['name_1']);
    // Same fields in another order are another key: the declared one is missing, and the
    // listed one (which holds the declared name) is the operator's.
    expect(result.missing.map((i) => i.name)).toEqual(['status_1_metrics.start_time_-1']);
    expect(result.external).toEqual([{ key: { 'metrics.start_time': -1, status: 1 }, name: 'status_1_metrics.start_time_-1', unique: false }]);
  });

  it("reports the same key the console made under another name, or with another unique flag, as misnamed with what was found", () => {
    const result = compareIndexes([byName, byStatus], [{ key: { name: 1 }, name: 'name_1' }, { key: { status: 1, 'metrics.start_time': -1 }, name: 'by_status' }], new Set(['name_1', 'by_status']));
    expect(result.misnamed).toEqual([
      { key: { name: 1 }, name: 'name_1', unique: true, found: { name: 'name_1', unique: false } },
      { key: { status: 1, 'metrics.start_time': -1 }, name: 'status_1_metrics.start_time_-1', unique: false, found: { name: 'by_status', unique: false } },
    ]);
    expect(result.missing).toEqual([]);
    expect(result.external).toEqual([]);
  });

  it("takes the same key the console did not make as the site's own: kept, serving the declared index, whatever its name", () => {
    const result = compareIndexes([byName, byStatus], [{ key: { name: 1 }, name: 'name_1' }, { key: { status: 1, 'metrics.start_time': -1 }, name: 'by_status' }]);
    expect(result.misnamed).toEqual([]);
    expect(result.missing).toEqual([]);
    expect(result.current.map((i) => i.name)).toEqual(['name_1', 'status_1_metrics.start_time_-1']);
    expect(result.external).toEqual([
      { key: { name: 1 }, name: 'name_1', unique: false, serves: 'name_1' },
      { key: { status: 1, 'metrics.start_time': -1 }, name: 'by_status', unique: false, serves: 'status_1_metrics.start_time_-1' },
    ]);
  });

  it('reports an index built without the declared partial filter (an earlier version\'s) as one to re-create', () => {
    // On fields only the console writes: an index of the declared name and key is an earlier console's.
    const lease: DeclaredIndex = { ...declared({ status: 1, leaseUntil: 1 }, 'status_1_leaseUntil_1'), partialFilterExpression: { leaseUntil: { $exists: true } }, consoleOnly: true };
    const before = compareIndexes([lease], [{ key: { status: 1, leaseUntil: 1 }, name: 'status_1_leaseUntil_1' }]);
    expect(before.current).toEqual([]);
    expect(before.misnamed).toEqual([
      { key: { status: 1, leaseUntil: 1 }, name: 'status_1_leaseUntil_1', unique: false, partialFilterExpression: { leaseUntil: { $exists: true } }, found: { name: 'status_1_leaseUntil_1', unique: false } },
    ]);
    const after = compareIndexes([lease], [{ key: { status: 1, leaseUntil: 1 }, name: 'status_1_leaseUntil_1', partialFilterExpression: { leaseUntil: { $exists: true } } }]);
    expect(after.current.map((i) => i.name)).toEqual(['status_1_leaseUntil_1']);
  });

  it('prefers the exact index when the key also exists under another name, and leaves the other external', () => {
    const result = compareIndexes([byStatus], [{ key: { status: 1, 'metrics.start_time': -1 }, name: 'by_status' }, { key: { status: 1, 'metrics.start_time': -1 }, name: 'status_1_metrics.start_time_-1' }]);
    expect(result.current.map((i) => i.name)).toEqual(['status_1_metrics.start_time_-1']);
    expect(result.misnamed).toEqual([]);
    expect(result.external.map((i) => i.name)).toEqual(['by_status']);
  });
});
