// Writes a profile's `db` folder in the previous embedded format, byte for byte as
// its datastore (@seald-io/nedb 4) wrote it: one line per insert and per update
// (the whole document again), `{"$$deleted":true,"_id":…}` per removal,
// `{"$$indexCreated":{…}}` per ensured index, dates as `{"$$date":ms}`, and the
// console's own `indexes.json` holding the MongoDB index specifications.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

type Value = unknown;

function serialize(value: Value): Value {
  if (value instanceof Date) return { $$date: value.getTime() };
  if (Array.isArray(value)) return value.map(serialize);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, serialize(v)]));
  return value;
}

export class NedbCollectionFile {
  private readonly lines: string[] = [];
  insert(doc: Record<string, Value> & { _id: string }) {
    this.lines.push(JSON.stringify(serialize(doc)));
    return this;
  }
  /** An update: the document as it is after it. */
  update(doc: Record<string, Value> & { _id: string }) {
    return this.insert(doc);
  }
  remove(id: string) {
    this.lines.push(JSON.stringify({ $$deleted: true, _id: id }));
    return this;
  }
  index(fieldName: string, unique = false) {
    this.lines.push(JSON.stringify({ $$indexCreated: { fieldName, unique } }));
    return this;
  }
  raw(line: string) {
    this.lines.push(line);
    return this;
  }
  text() {
    return this.lines.map((l) => `${l}\n`).join('');
  }
}

export async function writeNedbFolder(dir: string, collections: Record<string, NedbCollectionFile>, indexes?: Record<string, unknown[]>) {
  await mkdir(dir, { recursive: true });
  for (const [name, file] of Object.entries(collections)) await writeFile(path.join(dir, `${name}.db`), file.text());
  if (indexes) await writeFile(path.join(dir, 'indexes.json'), JSON.stringify({ collections: indexes }, null, 2));
}
