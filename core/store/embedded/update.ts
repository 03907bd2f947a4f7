// MongoDB's $set, $unset and $inc applied to a decoded document, and projections.
// The SQL UPDATE statements call `applyUpdate` through a function registered on
// the connection, so an update stays one statement.
import type { Doc, Update } from '../port';
import { StoreError } from '../errors';

const OPERATORS: ReadonlySet<string> = new Set(['$set', '$unset', '$inc']);
/** MongoDB's update operators on arrays: refused by name rather than applied otherwise than MongoDB does. */
const ARRAY_OPERATORS = '$push, $addToSet, $pull, $pullAll, $pop';
/** A positional segment: `$`, `$[]`, `$[name]`. */
const POSITIONAL = /^\$(\[[A-Za-z0-9_]*\])?$/;

export function checkUpdate(update: Update) {
  const ops = Object.keys(update ?? {});
  if (ops.length === 0) throw new StoreError('invalid', 'an update needs $set, $unset or $inc');
  for (const op of ops) {
    if (!OPERATORS.has(op)) {
      const arrays = ARRAY_OPERATORS.split(', ').includes(op) ? ` (the embedded store does not apply the array operators ${ARRAY_OPERATORS}: read the document and $set the array)` : '';
      throw new StoreError('invalid', `unsupported update operator ${op}${arrays}`);
    }
  }
  for (const [field, by] of Object.entries(update.$inc ?? {})) {
    if (typeof by !== 'number') throw new StoreError('invalid', `$inc of ${field} takes a number`);
  }
  for (const field of [...Object.keys(update.$set ?? {}), ...Object.keys(update.$unset ?? {}), ...Object.keys(update.$inc ?? {})]) {
    if (field === '_id') throw new StoreError('invalid', 'the _id of a document cannot be changed');
    const positional = field.split('.').find((segment) => POSITIONAL.test(segment));
    if (positional) throw new StoreError('invalid', `unsupported positional operator ${positional} in ${field}: name the array item by its index`);
  }
}

/** An object or array a dotted field walks through (never a Date: it holds no fields). */
type Container = object;

const isContainer = (value: unknown): value is Container => typeof value === 'object' && value !== null && !(value instanceof Date);

/** The object holding the last segment of `field`, created on the way when `create`. */
function parentOf(doc: Doc, field: string, create: boolean): { parent: Container; key: string } | undefined {
  const segments = field.split('.');
  const key = segments.pop() ?? field;
  let node: Container = doc;
  for (const segment of segments) {
    if (Array.isArray(node) && !/^\d+$/.test(segment)) {
      if (!create) return undefined;
      throw new StoreError('invalid', `cannot create field ${field}: ${segment} is read in an array, whose items are named by their index`);
    }
    let next: unknown = Reflect.get(node, segment);
    if (next === undefined || next === null) {
      if (!create) return undefined;
      next = {};
      Reflect.set(node, segment, next);
    }
    if (!isContainer(next)) {
      if (!create) return undefined;
      throw new StoreError('invalid', `cannot create field ${field}: ${segment} holds a ${typeof next}`);
    }
    node = next;
  }
  // MongoDB names an array's item by its index only: "Cannot create field 'k' in element {items: [...]}".
  if (create && Array.isArray(node) && !/^\d+$/.test(key)) throw new StoreError('invalid', `cannot create field ${field}: ${segments.at(-1) ?? field} holds an array, whose items are named by their index`);
  return { parent: node, key };
}

/** `parentOf` for a write: the path is created, so there always is one. */
function parentForWrite(doc: Doc, field: string): { parent: Container; key: string } {
  const at = parentOf(doc, field, true);
  if (!at) throw new StoreError('invalid', `cannot create field ${field}`);
  return at;
}

/**
 * The document after `update`. `toWrite`: the document is only written as JSON afterwards, so an
 * unset field of an object is set to undefined, which JSON leaves out as it does a deleted one:
 * deleting a field turns the object into a dictionary, which JSON.stringify writes slower.
 */
export function applyUpdate(doc: Doc, update: Update, toWrite = false): Doc {
  for (const [field, value] of Object.entries(update.$set ?? {})) {
    const at = parentForWrite(doc, field);
    Reflect.set(at.parent, at.key, value);
  }
  for (const [field, by] of Object.entries(update.$inc ?? {})) {
    const at = parentForWrite(doc, field);
    const now: unknown = Reflect.get(at.parent, at.key);
    // MongoDB: "Cannot apply $inc to a value of non-numeric type null"; a missing field starts at 0.
    if (now !== undefined && typeof now !== 'number') {
      throw new StoreError('invalid', `cannot $inc ${field}: it holds ${now === null ? 'null' : `a ${typeof now}`}, not a number`);
    }
    Reflect.set(at.parent, at.key, (now ?? 0) + by);
  }
  for (const field of Object.keys(update.$unset ?? {})) {
    const at = parentOf(doc, field, false);
    if (!at) continue;
    if (Array.isArray(at.parent)) {
      // MongoDB sets an unset item to null (the array keeps its length); a name that is no index names nothing.
      if (/^\d+$/.test(at.key) && Number(at.key) < at.parent.length) at.parent[Number(at.key)] = null;
    }
    else if (toWrite) {
      if (Reflect.has(at.parent, at.key)) Reflect.set(at.parent, at.key, undefined);
    } else Reflect.deleteProperty(at.parent, at.key);
  }
  return doc;
}

function getPath(doc: unknown, segments: string[]): unknown {
  let node = doc;
  for (const s of segments) {
    if (node === null || typeof node !== 'object') return undefined;
    node = Reflect.get(node, s);
  }
  return node;
}

/** MongoDB projection: inclusion (1) or exclusion (0) of fields; `_id` is kept unless excluded. */
export function project(doc: Doc, projection: Record<string, 0 | 1> | undefined): Doc {
  if (!projection) return doc;
  const entries = Object.entries(projection);
  if (!entries.length) return doc;
  // `{ _id: 1 }` alone is an inclusion of `_id` only, as in MongoDB; `{ _id: 0 }` alone excludes it.
  const including = entries.some(([field, v]) => field !== '_id' && v) || (entries.length === 1 && projection._id === 1);
  if (including) {
    const out: Doc = {};
    if (projection._id !== 0 && doc._id !== undefined) out._id = doc._id;
    for (const [field, v] of entries) {
      if (!v || field === '_id') continue;
      const segments = field.split('.');
      const value = getPath(doc, segments);
      if (value === undefined) continue;
      const last = segments.pop() ?? field;
      let node: object = out;
      for (const s of segments) {
        const next: unknown = Reflect.get(node, s);
        if (isContainer(next)) node = next;
        else Reflect.set(node, s, (node = {}));
      }
      Reflect.set(node, last, value);
    }
    return out;
  }
  for (const [field] of entries) {
    const at = parentOf(doc, field, false);
    if (at && !Array.isArray(at.parent)) Reflect.deleteProperty(at.parent, at.key);
  }
  return doc;
}
