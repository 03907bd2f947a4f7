// A database the service wrote holds ObjectIds where the console writes their 24-hex-digit
// strings: a job's `_id`, a task document's `job._id`, a job's `ancestors` and `parent.job`. Filters
// on those fields match either form (a hex string given matches the ObjectId of the same digits),
// and documents read back carry the strings, so the console reads, shows and acts on the service's
// jobs as on its own. Other values are left as they are (an ObjectId elsewhere answers as its hex
// string in JSON anyway).
import { ObjectId } from 'mongodb';
import type { Filter } from '../port';

const HEX = /^[0-9a-f]{24}$/i;
/** The fields that hold a job's or task's id in the service's documents. */
const ID_FIELD = /^(_id|job\._id|parent\.job|ancestors(\.\d+)?|job_id|metadata\.job)$/;

const isHex = (value: unknown): value is string => typeof value === 'string' && HEX.test(value);
const both = (values: unknown[]) => values.flatMap((v) => (isHex(v) ? [v, new ObjectId(v)] : [v]));

function idCondition(condition: unknown): unknown {
  if (isHex(condition)) return { $in: both([condition]) };
  if (condition === null || typeof condition !== 'object' || Array.isArray(condition) || condition instanceof ObjectId) return condition;
  if (!Object.keys(condition).every((k) => k.startsWith('$'))) return condition;
  const out: Record<string, unknown> = {};
  for (const [op, operand] of Object.entries(condition)) {
    if (op === '$eq' && isHex(operand)) out.$in = both([operand]);
    else if (op === '$ne' && isHex(operand)) out.$nin = both([operand]);
    else if ((op === '$in' || op === '$nin') && Array.isArray(operand) && operand.some(isHex)) out[op] = both(operand);
    else out[op] = operand;
  }
  return out;
}

function needsIds(filter: Filter): boolean {
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' || key === '$or') {
      if (Array.isArray(value) && value.some((f) => needsIds(f as Filter))) return true;
    } else if (ID_FIELD.test(key)) return true;
  }
  return false;
}

/** The filter with each id field matching a hex string's ObjectId too; the same object when it names none. */
export function eitherIdForm(filter: Filter): Filter {
  if (!needsIds(filter)) return filter;
  const out: Filter = {};
  for (const [key, value] of Object.entries(filter)) {
    if ((key === '$and' || key === '$or') && Array.isArray(value)) out[key] = value.map((f) => eitherIdForm(f as Filter));
    else out[key] = ID_FIELD.test(key) ? idCondition(value) : value;
  }
  return out;
}

const hex = (value: unknown) => (value instanceof ObjectId ? value.toHexString() : value);

/** A document read back with the ObjectIds of its id fields as their hex strings (the same object when it has none). */
export function plainIds<T extends Record<string, unknown>>(doc: T): T {
  let out: Record<string, unknown> | undefined;
  const set = (key: string, value: unknown) => ((out ??= { ...doc })[key] = value);
  if (doc._id instanceof ObjectId) set('_id', doc._id.toHexString());
  const job = doc.job;
  if (job && typeof job === 'object' && '_id' in job && job._id instanceof ObjectId) set('job', { ...job, _id: job._id.toHexString() });
  const parent = doc.parent;
  if (parent && typeof parent === 'object' && 'job' in parent && parent.job instanceof ObjectId) set('parent', { ...parent, job: parent.job.toHexString() });
  for (const list of ['ancestors', 'children']) {
    const value = doc[list];
    if (Array.isArray(value) && value.some((v) => v instanceof ObjectId)) set(list, value.map(hex));
  }
  return (out ?? doc) as T;
}
