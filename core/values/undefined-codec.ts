// The undefined codec (release 2022.1, section 1.1). A store cannot hold
// `undefined`, so job and task variables go in with every undefined replaced by
// the marker `~4undefined` and come back with the marker turned into undefined
// again. Records written before the marker existed hold null instead; they read
// as null, as they always did. Because a string equal to the marker would come
// back as undefined, user input holding it is refused.
import { DomainError } from '../errors/domain';

export const UNDEFINED_MARKER = '~4undefined';

/** A user-supplied value holds the marker string; `path` names where, e.g. `variables.device.tags[2]`. */
export class MarkerValueError extends DomainError {
  constructor(readonly path: string) {
    super(
      'invalid-value',
      `${path || 'value'} is the reserved string "${UNDEFINED_MARKER}", which the engine stores in place of undefined ` +
        `and would read back as undefined; use another value (or leave the key out to mean undefined)`,
    );
    this.name = 'MarkerValueError';
  }
}

/** Plain objects and arrays are walked; anything else (Date, ObjectId, Buffer) is a leaf. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** The value with each leaf (anything but an array or a plain object) replaced by `leaf(it)`, keys and slots kept. */
function mapLeaves(value: unknown, leaf: (value: unknown) => unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => mapLeaves(item, leaf));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = mapLeaves(item, leaf);
    return out;
  }
  return leaf(value);
}

function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  if (/^[A-Za-z_$][\w$]*$/.test(key)) return path ? `${path}.${key}` : key;
  return `${path}[${JSON.stringify(key)}]`;
}

/** The path of `keys` below `path` (`variables.device.tags[2]`): built only when a marker is found, never per value. */
const pathOf = (path: string, keys: readonly (string | number)[]) => keys.reduce<string>((at, key) => childPath(at, key), path);

/** Throws `MarkerValueError` naming the first place where `value` holds the marker string. */
export function rejectMarker(value: unknown, path = ''): void {
  rejectBelow(value, path, []);
}

// The walks below are functions of the module, not closures made per call: a closure per value
// encoded (several per task) is an object built and thrown away.
function rejectBelow(node: unknown, path: string, keys: (string | number)[]): void {
  if (node === UNDEFINED_MARKER) throw new MarkerValueError(pathOf(path, keys));
  if (Array.isArray(node)) {
    for (let index = 0; index < node.length; index++) {
      keys.push(index);
      rejectBelow(node[index], path, keys);
      keys.pop();
    }
  } else if (isPlainObject(node)) {
    for (const key of Object.keys(node)) {
      keys.push(key);
      rejectBelow(node[key], path, keys);
      keys.pop();
    }
  }
}

/**
 * The value as it goes into the store: undefined (at any depth, in objects and
 * arrays) becomes the marker; null stays null. A string equal to the marker is
 * refused with `MarkerValueError`, since it could not be told from undefined.
 */
export function encodeValue(value: unknown, path = ''): unknown {
  // A leaf that is neither undefined nor the marker is itself (no path stack made for it).
  if (value !== undefined && value !== UNDEFINED_MARKER && (value === null || typeof value !== 'object')) return value;
  return encodeBelow(value, path, []);
}

function encodeBelow(node: unknown, path: string, keys: (string | number)[]): unknown {
  if (node === undefined) return UNDEFINED_MARKER;
  if (node === UNDEFINED_MARKER) throw new MarkerValueError(pathOf(path, keys));
  if (Array.isArray(node)) {
    const out: unknown[] = new Array(node.length);
    for (let index = 0; index < node.length; index++) {
      // A hole stays a hole, as Array.prototype.map leaves it.
      if (!(index in node)) continue;
      keys.push(index);
      out[index] = encodeBelow(node[index], path, keys);
      keys.pop();
    }
    return out;
  }
  if (isPlainObject(node)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(node)) {
      keys.push(key);
      out[key] = encodeBelow(node[key], path, keys);
      keys.pop();
    }
    return out;
  }
  return node;
}

/**
 * The value as read from the store: the marker (at any depth) becomes undefined,
 * keeping the key in objects and the slot in arrays; null stays null, which is
 * also how records written before the marker existed read.
 */
export function decodeValue(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value === UNDEFINED_MARKER ? undefined : value;
  return mapLeaves(value, decodeLeaf);
}

const decodeLeaf = (leaf: unknown) => (leaf === UNDEFINED_MARKER ? undefined : leaf);

/** `map` applied to each field of a plain record; a record that is not plain (a leaf) is kept as it is. */
function mapFields(vars: Record<string, unknown>, map: (item: unknown, key: string) => unknown): Record<string, unknown> {
  if (!isPlainObject(vars)) return vars;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(vars)) out[key] = map(item, key);
  return out;
}

/** Encodes each variable of a record (the shape of job variables, incoming, outgoing). */
export function encodeVariables(vars: Record<string, unknown>, path = 'variables'): Record<string, unknown> {
  if (!isPlainObject(vars)) return vars;
  const out: Record<string, unknown> = {};
  // Each variable's path (`variables.name`) is made only when a marker is found in it.
  for (const key of Object.keys(vars)) out[key] = encodeBelow(vars[key], path, [key]);
  return out;
}

export function decodeVariables(vars: Record<string, unknown> | null | undefined): Record<string, unknown> {
  return vars ? mapFields(vars, decodeValue) : {};
}

const nullLeaf = (leaf: unknown) => (leaf === undefined || leaf === UNDEFINED_MARKER ? null : leaf);
const undefinedToNull = (value: unknown) => mapLeaves(value, nullLeaf);

/**
 * The values as a release before 2021.1.10 stored them (section 1.1.1): every undefined, at any
 * depth, is null, so it reads back as null. Keys and slots are kept.
 */
export function undefinedStoredAsNull(vars: Record<string, unknown>): Record<string, unknown> {
  return mapFields(vars, undefinedToNull);
}

/**
 * The variables a child job starts with (section 1.1.4): a variable passed as
 * undefined is processed as null, not undefined. Applied at every depth, so a
 * nested undefined also arrives as null; keys are kept.
 */
export function childJobVariables(vars: Record<string, unknown> | null | undefined, undefinedAs: 'null' | 'undefined' = 'null'): Record<string, unknown> {
  if (!vars) return {};
  // Before 2022.1 (the release's semantics say which) an undefined variable stays undefined.
  if (undefinedAs === 'undefined') return mapFields(vars, decodeValue);
  return mapFields(vars, undefinedToNull);
}
