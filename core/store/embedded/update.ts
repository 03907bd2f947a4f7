// MongoDB's $set, $unset and $inc applied to a decoded document, and projections.
// The SQL UPDATE statements call `applyUpdate` through a function registered on
// the connection, so an update stays one statement.
import type { Doc, Update } from '../port';
import { StoreError } from '../errors';

const OPERATORS = new Set(['$set', '$unset', '$inc']);

export function checkUpdate(update: Update) {
  const ops = Object.keys(update ?? {});
  if (ops.length === 0) throw new StoreError('invalid', 'an update needs $set, $unset or $inc');
  for (const op of ops) if (!OPERATORS.has(op)) throw new StoreError('invalid', `unsupported update operator ${op}`);
  for (const [field, by] of Object.entries(update.$inc ?? {})) {
    if (typeof by !== 'number') throw new StoreError('invalid', `$inc of ${field} takes a number`);
  }
  for (const field of [...Object.keys(update.$set ?? {}), ...Object.keys(update.$unset ?? {}), ...Object.keys(update.$inc ?? {})]) {
    if (field === '_id') throw new StoreError('invalid', 'the _id of a document cannot be changed');
  }
}

type Container = Record<string, unknown> | unknown[];

/** The object holding the last segment of `field`, created on the way when `create`. */
function parentOf(doc: Doc, field: string, create: boolean): { parent: Container; key: string } | undefined {
  const segments = field.split('.');
  let node: Container = doc;
  for (const segment of segments.slice(0, -1)) {
    let next = (node as Record<string, unknown>)[segment];
    if (next === undefined || next === null) {
      if (!create) return undefined;
      next = {};
      (node as Record<string, unknown>)[segment] = next;
    }
    if (typeof next !== 'object' || next instanceof Date) {
      if (!create) return undefined;
      throw new StoreError('invalid', `cannot create field ${field}: ${segment} holds a ${typeof next}`);
    }
    node = next as Container;
  }
  return { parent: node, key: segments[segments.length - 1]! };
}

export function applyUpdate(doc: Doc, update: Update): Doc {
  for (const [field, value] of Object.entries(update.$set ?? {})) {
    const at = parentOf(doc, field, true)!;
    (at.parent as Record<string, unknown>)[at.key] = value;
  }
  for (const [field, by] of Object.entries(update.$inc ?? {})) {
    const at = parentOf(doc, field, true)!;
    const now = (at.parent as Record<string, unknown>)[at.key];
    if (now !== undefined && now !== null && typeof now !== 'number') {
      throw new StoreError('invalid', `cannot $inc ${field}: it holds a ${typeof now}, not a number`);
    }
    (at.parent as Record<string, unknown>)[at.key] = ((now as number | undefined) ?? 0) + by;
  }
  for (const field of Object.keys(update.$unset ?? {})) {
    const at = parentOf(doc, field, false);
    if (!at) continue;
    if (Array.isArray(at.parent)) at.parent[Number(at.key)] = null;
    else delete at.parent[at.key];
  }
  return doc;
}

function getPath(doc: unknown, segments: string[]): unknown {
  let node = doc;
  for (const s of segments) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[s];
  }
  return node;
}

/** MongoDB projection: inclusion (1) or exclusion (0) of fields; `_id` is kept unless excluded. */
export function project(doc: Doc, projection: Record<string, 0 | 1> | undefined): Doc {
  const entries = Object.entries(projection ?? {});
  if (!entries.length) return doc;
  // `{ _id: 1 }` alone is an inclusion of `_id` only, as in MongoDB; `{ _id: 0 }` alone excludes it.
  const including = entries.some(([field, v]) => field !== '_id' && v) || (entries.length === 1 && projection!._id === 1);
  if (including) {
    const out: Doc = {};
    if (projection!._id !== 0 && doc._id !== undefined) out._id = doc._id;
    for (const [field, v] of entries) {
      if (!v || field === '_id') continue;
      const segments = field.split('.');
      const value = getPath(doc, segments);
      if (value === undefined) continue;
      let node: Record<string, unknown> = out;
      for (const s of segments.slice(0, -1)) node = (node[s] ??= {}) as Record<string, unknown>;
      node[segments[segments.length - 1]!] = value;
    }
    return out;
  }
  for (const [field] of entries) {
    const at = parentOf(doc, field, false);
    if (at && !Array.isArray(at.parent)) delete at.parent[at.key];
  }
  return doc;
}
