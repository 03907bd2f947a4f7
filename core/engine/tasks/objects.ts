// The object tasks of the WorkFlowEngine application. Objects given are never
// changed in place: each task outputs a new one.
import { describe, isAbsent, optionalNumber, requiredString, TaskArgumentError } from './args';
import { isObject } from './equal';
import { parsePath, queryPath } from './query-path';
import type { BuiltInTask, TaskOutcome } from './types';

const ok = (outgoing: Record<string, unknown>): TaskOutcome => ({ state: 'success', outgoing });

function requiredObject(incoming: Record<string, unknown>, name: string): Record<string, unknown> {
  const value = incoming[name];
  if (!isObject(value)) throw new TaskArgumentError(`${name} must be an object, got ${describe(value)}`);
  return value;
}

/** `path` as the service takes it: an array of keys (`["a", "b", 0]`) or a dotted string (`a.b[0]`). */
function pathOf(incoming: Record<string, unknown>): (string | number)[] {
  const path = incoming.path;
  if (typeof path === 'string') return parsePath(path);
  if (Array.isArray(path) && path.every((p) => typeof p === 'string' || typeof p === 'number')) return path;
  throw new TaskArgumentError(`path must be an array of keys or a path like a.b[0], got ${describe(path)}`);
}

function setAt(root: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (head === undefined) return value;
  const container: object = Array.isArray(root) ? [...root] : isObject(root) ? { ...root } : typeof rest[0] === 'number' || typeof head === 'number' ? [] : {};
  Reflect.set(container, head, setAt(Reflect.get(container, head), rest, value));
  return container;
}

/**
 * `source` merged into `target` at any depth, as the service's deepmerge folds its objects: the
 * later value wins on a conflict; objects merge key by key and arrays item by item (so an array of
 * as many items replaces the earlier one, and items that are objects merge); a value left undefined
 * keeps the earlier one. Neither input is changed.
 */
function merged(target: unknown, source: unknown): unknown {
  if (source === undefined) return target;
  if (isObject(target) && isObject(source)) {
    const out: Record<string, unknown> = { ...target };
    for (const [key, value] of Object.entries(source)) out[key] = Object.hasOwn(out, key) ? merged(out[key], value) : value;
    return out;
  }
  if (Array.isArray(target) && Array.isArray(source)) {
    const out = [...target];
    source.forEach((item, i) => (out[i] = i < target.length ? merged(target[i], item) : item));
    return out;
  }
  return source;
}

/**
 * deepmerge's data_to_merge: rows as merge's, each row's `key` ignored (the reference: "the key field
 * is not used"); a row that is not `{ key, value }` is taken as the value itself. Each must be an object.
 */
function deepMergeSources(data: unknown): Record<string, unknown>[] {
  if (!Array.isArray(data) || data.length === 0) throw new TaskArgumentError(`data_to_merge must be a non-empty array of the objects to merge ({ key, value } rows), got ${describe(data)}`);
  return data.map((row, i) => {
    const value = isObject(row) && 'value' in row && Object.keys(row).every((k) => k === 'key' || k === 'value') ? row.value : row;
    if (!isObject(value)) throw new TaskArgumentError(`data_to_merge[${i}] must be an object to merge (deepmerge merges objects only), got ${describe(value)}`);
    return value;
  });
}

const sources = (incoming: Record<string, unknown>, name: string): Record<string, unknown>[] => {
  const value = incoming[name];
  if (isAbsent(value)) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((item, i) => {
    if (!isObject(item)) throw new TaskArgumentError(`${name}[${i}] must be an object, got ${describe(item)}`);
    return item;
  });
};

/**
 * modify (the service's task reference): a copy of object_to_update with new_value in place
 * of it, or, for an object and a query (a path such as `device.name`), in place of that
 * field. Booleans, numbers, strings and objects; not arrays, nor array elements inside one.
 */
function modify(incoming: Record<string, unknown>): TaskOutcome {
  const target = incoming.object_to_update;
  if (!('new_value' in incoming)) throw new TaskArgumentError('new_value is required (the value that replaces object_to_update or its queried field)');
  if (Array.isArray(target)) throw new TaskArgumentError('object_to_update must be a boolean, number, string or object (modify does not work on arrays)');
  const query = typeof incoming.query === 'string' ? incoming.query.trim() : '';
  if (!isObject(target) || query === '') return ok({ updated_object: incoming.new_value });
  const path = parsePath(query);
  if (path.some((part) => typeof part === 'number')) throw new TaskArgumentError(`query "${query}" names an array element, which modify does not change`);
  let at: unknown = target;
  for (const part of path.slice(0, -1)) {
    at = isObject(at) ? at[part] : undefined;
    if (Array.isArray(at)) throw new TaskArgumentError(`query "${query}" leads through an array, which modify does not change`);
  }
  return ok({ updated_object: setAt(target, path, incoming.new_value) });
}

export const objectTasks: BuiltInTask[] = [
  {
    method: 'modify',
    summary:
      'A copy of object_to_update (a boolean, number, string or object, not an array) replaced by new_value; for an object with a query (a path like device.name), only that field is replaced',
    incoming: ['object_to_update', 'query', 'new_value'],
    outgoing: ['updated_object'],
    run: modify,
  },
  {
    method: 'setObjectKey',
    summary: 'obj with the property at path (an array of keys) set to value; missing levels are created',
    incoming: ['obj', 'path', 'value'],
    outgoing: ['object'],
    run: (incoming) => ok({ object: setAt(isAbsent(incoming.obj) ? {} : requiredObject(incoming, 'obj'), pathOf(incoming), incoming.value) }),
  },
  {
    method: 'keys',
    summary: 'The own property names of obj',
    incoming: ['obj'],
    outgoing: ['keys'],
    run: (incoming) => ok({ keys: Object.keys(requiredObject(incoming, 'obj')) }),
  },
  {
    method: 'values',
    summary: 'The own property values of obj',
    incoming: ['obj'],
    outgoing: ['values'],
    run: (incoming) => ok({ values: Object.values(requiredObject(incoming, 'obj')) }),
  },
  {
    method: 'objectHasOwnProperty',
    summary: 'Whether obj has the property prop of its own',
    incoming: ['obj', 'prop'],
    outgoing: ['result'],
    run: (incoming) => ok({ result: Object.hasOwn(requiredObject(incoming, 'obj'), requiredString(incoming, 'prop')) }),
  },
  {
    method: 'assign',
    summary: 'target with the properties of each of sourceN (an object or an array of objects) copied over it, shallowly',
    incoming: ['target', 'sourceN'],
    outgoing: ['targetObject'],
    run: (incoming) => ok({ targetObject: Object.assign({}, requiredObject(incoming, 'target'), ...sources(incoming, 'sourceN')) }),
  },
  {
    method: 'deepmerge',
    summary: 'The objects of data_to_merge (rows as merge\'s, key ignored) folded into one at any depth: the later value wins, arrays merge item by item',
    incoming: ['data_to_merge'],
    outgoing: ['merged_object'],
    run: (incoming) => ok({ merged_object: deepMergeSources(incoming.data_to_merge).reduce<unknown>((out, value) => merged(out, value), {}) }),
  },
  {
    method: 'extractField',
    summary: 'The value at path (a.b[0]) in obj, undefined when there is none',
    incoming: ['obj', 'path'],
    outgoing: ['value'],
    run: (incoming) => ok({ value: queryPath(incoming.obj, requiredString(incoming, 'path')) }),
  },
  {
    method: 'FlattenJSONFormInput',
    summary: 'input with each key whose value is an array of one element given that element instead ({ "test": ["a"] } gives { "test": "a" }); other values as they are',
    incoming: ['input'],
    outgoing: ['response'],
    run(incoming) {
      const input = requiredObject(incoming, 'input');
      return ok({ response: Object.fromEntries(Object.entries(input).map(([key, value]) => [key, Array.isArray(value) && value.length === 1 ? value[0] : value])) });
    },
  },
  {
    method: 'objectToString',
    summary: 'value as JSON text (JSON.stringify): only the properties named in replacer (an array) when given, indented by space',
    incoming: ['value', 'replacer', 'space'],
    outgoing: ['stringified'],
    run(incoming) {
      // `obj`: the name this console gave the value before it took the service's (workflows saved with it still run).
      const value = 'value' in incoming || !('obj' in incoming) ? incoming.value : incoming.obj;
      const replacer = isAbsent(incoming.replacer) ? undefined : incoming.replacer;
      if (replacer !== undefined && !Array.isArray(replacer)) throw new TaskArgumentError(`replacer must be an array of property names, got ${describe(replacer)}`);
      const space = optionalNumber(incoming, 'space');
      return ok({ stringified: JSON.stringify(value, replacer as (string | number)[] | undefined, space) ?? 'undefined' });
    },
  },
  {
    method: 'parse',
    summary: 'The value of the JSON text text',
    incoming: ['text'],
    outgoing: ['textObject'],
    run(incoming) {
      // `str`: the name this console gave the text before it took the service's (workflows saved with it still run).
      const name = 'text' in incoming || !('str' in incoming) ? 'text' : 'str';
      const text = requiredString(incoming, name);
      try {
        return ok({ textObject: JSON.parse(text) });
      } catch {
        throw new TaskArgumentError(`${name} is not valid JSON: ${describe(text)}`);
      }
    },
  },
];
