// The MongoDB adapter on a database the service wrote (core/store/mongodb/object-ids.ts): a hex
// string in a filter on an id field matches the ObjectId of the same digits too, and the id fields
// of a document read back are hex strings; other fields and filters are left as they are.
import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { eitherIdForm, plainIds } from '../../core/store/mongodb/object-ids';

const hex = '65a1b2c3d4e5f60718293a4b';

describe('ObjectId ids on the MongoDB adapter', () => {
  it('matches either form on id fields only, in $eq, $ne, $in, $nin, $and and $or', () => {
    const oid = new ObjectId(hex);
    expect(eitherIdForm({ _id: hex })).toEqual({ _id: { $in: [hex, oid] } });
    expect(eitherIdForm({ 'job._id': { $in: [hex, 'other'] } })).toEqual({ 'job._id': { $in: [hex, oid, 'other'] } });
    expect(eitherIdForm({ 'ancestors.0': { $ne: hex } })).toEqual({ 'ancestors.0': { $nin: [hex, oid] } });
    expect(eitherIdForm({ $or: [{ 'parent.job': hex }, { name: hex }] })).toEqual({ $or: [{ 'parent.job': { $in: [hex, oid] } }, { name: hex }] });
    expect(eitherIdForm({ ancestors: { $size: 1 } })).toEqual({ ancestors: { $size: 1 } });
    // A filter naming no id field is the same object (the hot paths pay nothing).
    const claim = { status: 'queued', runAfter: { $lte: 5 } };
    expect(eitherIdForm(claim)).toBe(claim);
    // A console record id is not an ObjectId's digits: left as it is.
    expect(eitherIdForm({ _id: `${hex}:t1:0` })).toEqual({ _id: `${hex}:t1:0` });
  });

  it("reads the id fields of the service's documents as hex strings, and leaves the console's as they are", () => {
    const oid = new ObjectId(hex);
    expect(plainIds({ _id: oid, job: { _id: oid, name: 'x' }, parent: { job: oid, task: 'a' }, ancestors: [oid], other: oid })).toEqual({
      _id: hex,
      job: { _id: hex, name: 'x' },
      parent: { job: hex, task: 'a' },
      ancestors: [hex],
      other: oid,
    });
    const own = { _id: hex, ancestors: [hex] };
    expect(plainIds(own)).toBe(own);
  });
});
