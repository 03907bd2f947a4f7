// The service's documents kept whole: keys with a leading `$` or a `.` escaped and
// read back as they were; a replaced document loses the fields it no longer has.
import { describe, expect, it } from 'vitest';
import { escapeKeys, replaceFields, unescapeKeys } from '../../core/store/documents';
import type { Store } from '../../core/store/port';
import { withTempStore } from './support/temp-store';

const schema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'incoming',
  properties: { 'a.b': { type: 'string' }, list: [{ $ref: '#/x', 'x.y.z': 1 }] },
  plain: 'x.y',
};

describe('escaped keys', () => {
  it('escapes a leading $ and every dot, at any depth and inside arrays, and leaves values alone', () => {
    expect(escapeKeys(schema)).toEqual({
      '\uFF04schema': 'http://json-schema.org/draft-07/schema#',
      '\uFF04id': 'incoming',
      properties: { 'a\uFF0Eb': { type: 'string' }, list: [{ '\uFF04ref': '#/x', 'x\uFF0Ey\uFF0Ez': 1 }] },
      plain: 'x.y',
    });
  });

  it('reads the escaped document back as it was', () => {
    expect(unescapeKeys(escapeKeys(schema))).toEqual(schema);
  });
});

describe('replaceFields', () => {
  let store: Store;
  withTempStore('documents-', (opened) => ({ store } = opened));

  it('keeps the _id, sets the new fields and removes the ones the new document no longer has', async () => {
    const collection = store.collection('parts');
    const id = await collection.insertOne({ name: 'p', old: 1, kept: 'a' });
    const existing = (await collection.findOne({ _id: id }))!;
    await replaceFields(collection, existing, { name: 'p', kept: 'b', added: true });
    expect(await collection.find({})).toEqual([{ _id: id, name: 'p', kept: 'b', added: true }]);
  });
});
