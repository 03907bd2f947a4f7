// The Object library: property access by name (getProperty, setProperty, optional
// chaining, ...) and Object.* with the object as the first argument. Writes return
// a copy; the object given is never changed.
import { MethodArgumentError } from '../errors';
import { describeValue, type CallContext, type MethodTable } from './types';
import { errorMessage } from '../../errors';

const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * A property name as JavaScript makes one of any value (`obj[undefined] = v` sets "undefined",
 * `obj[1]` reads "1", `obj[[1, 2]]` reads "1,2"), the names that reach prototypes refused.
 */
function key(value: unknown, method: string): string {
  const k = typeof value === 'string' ? value : String(value);
  // The three names compared one by one: cheaper than the set's lookup on the path of every property read.
  if (k === '__proto__' || k === 'constructor' || k === 'prototype') throw new MethodArgumentError(`Object.${method} cannot use the property "${k}"`);
  return k;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object';
}

/** The object JavaScript's Object.* functions make of a value (a string's characters, nothing of a number); null and undefined are its TypeError. */
function objectArg(value: unknown, method: string): Record<string, unknown> {
  if (value === null || value === undefined) throw new MethodArgumentError(`Object.${method} needs an object as its first argument, got ${describeValue(value)}`, 0);
  return Object(value) as Record<string, unknown>;
}

function own(target: unknown, name: string): unknown {
  if (target === null || target === undefined) return undefined;
  if (typeof target === 'string') return name === 'length' || Object.prototype.hasOwnProperty.call(Object(target), name) ? Reflect.get(Object(target), name) : undefined;
  if (!isObject(target)) return undefined;
  return Object.prototype.hasOwnProperty.call(target, name) ? target[name] : undefined;
}

function copyOf(value: unknown): Record<string, unknown> | unknown[] {
  if (Array.isArray(value)) return value.slice();
  return isObject(value) ? { ...value } : {};
}

/** A static string or number name as `key` reads it, worked out once (a compiled step whose name is static); undefined for another value or where `key` would throw (the general path then runs). */
export function staticKey(name: unknown): string | undefined {
  const k = typeof name === 'number' ? String(name) : name;
  return typeof k === 'string' && k !== '__proto__' && k !== 'constructor' && k !== 'prototype' ? k : undefined;
}

/** getProperty of one static name, as a function of the object alone: the same answer as getProperty(target, name). */
export function propertyReader(name: string): (target: unknown) => unknown {
  if (name === 'length' || /^\d+$/.test(name)) return (target) => own(target, name);
  // Every value but an object answers undefined for a name other than `length` or an index (a string's character).
  return (target) => (target !== null && typeof target === 'object' && Object.prototype.hasOwnProperty.call(target, name) ? (target as Record<string, unknown>)[name] : undefined);
}

const newObject = (value: unknown) => (isObject(value) && !Array.isArray(value) ? { ...value } : {});

const getProperty = (target: unknown, name: unknown) => own(target, key(name, 'getProperty'));

function setProperty(target: unknown, name: unknown, value: unknown): unknown {
  const k = key(name, 'setProperty');
  if (Array.isArray(target)) {
    const items = target.slice();
    Reflect.set(items, k, value);
    return items;
  }
  // A plain keyed write on the copy: the common case (an object built in a map) stays fast.
  const copy: Record<string, unknown> = isObject(target) ? { ...target } : {};
  copy[k] = value;
  return copy;
}

/**
 * setProperty on an object no one else holds (what `new Object` or setProperty just answered,
 * read by this step alone): written in place, as a copy of it would have been.
 */
function setOwnedProperty(target: unknown, name: unknown, value: unknown): unknown {
  if (!isObject(target)) return setProperty(target, name, value);
  const k = key(name, 'setProperty');
  if (Array.isArray(target)) Reflect.set(target, k, value);
  else target[k] = value;
  return target;
}

export const objectMethods: MethodTable = {
  'new Object': { summary: 'A new object (a copy of an object argument, else empty)', fn: (args: unknown[]) => newObject(args[0]), direct: newObject, fresh: true },
  getProperty: {
    summary: 'The value of a property (undefined when the object or the property is missing)',
    fn: (args: unknown[]) => getProperty(args[0], args[1]),
    direct: getProperty,
  },
  'optional chaining': {
    summary: 'The value down a path of property names, undefined as soon as one is missing',
    fn: (args: unknown[]) => {
      let current = args[0];
      for (const part of args.slice(1)) {
        if (part === null || part === undefined) continue;
        current = Array.isArray(current) && /^\d+$/.test(String(part)) ? current[Number(part)] : own(current, key(part, 'optional chaining'));
        if (current === undefined || current === null) return undefined;
      }
      return current;
    },
  },
  setProperty: {
    summary: 'A copy of the object with a property set',
    fn: (args: unknown[]) => setProperty(args[0], args[1], args[2]),
    direct: setProperty,
    fresh: true,
    inPlace: setOwnedProperty,
  },
  deleteProperty: {
    summary: 'A copy of the object without a property',
    fn: (args: unknown[]) => {
      const copy = copyOf(args[0]);
      Reflect.deleteProperty(copy, key(args[1], 'deleteProperty'));
      return copy;
    },
  },
  hasOwnProperty: { summary: 'Whether the object has the property itself', fn: (args: unknown[]) => Object.prototype.hasOwnProperty.call(objectArg(args[0], 'hasOwnProperty'), key(args[1], 'hasOwnProperty')) },
  hasOwn: { summary: 'Whether the object has the property itself', fn: (args: unknown[]) => Object.prototype.hasOwnProperty.call(objectArg(args[0], 'hasOwn'), key(args[1], 'hasOwn')) },
  keys: { summary: 'The names of its own properties', fn: (args: unknown[]) => Object.keys(objectArg(args[0], 'keys')) },
  values: { summary: 'The values of its own properties', fn: (args: unknown[]) => Object.values(objectArg(args[0], 'values')) },
  entries: { summary: 'Its [name, value] pairs', fn: (args: unknown[]) => Object.entries(objectArg(args[0], 'entries')) },
  fromEntries: {
    summary: 'An object from [name, value] pairs',
    fn: (args: unknown[]) => {
      // JavaScript's own: it defines each name as an own property (never a prototype), and throws its TypeError on what is no list of pairs.
      try {
        return Object.fromEntries(args[0] as Iterable<readonly [PropertyKey, unknown]>);
      } catch (error) {
        throw new MethodArgumentError(`Object.fromEntries needs a list of [name, value] pairs: ${errorMessage(error)}`, 0);
      }
    },
  },
  assign: {
    summary: 'A copy of the first argument with the own properties of each later one in turn (a string gives its characters; null and undefined nothing)',
    fn: (args: unknown[]) => {
      const target = objectArg(args[0], 'assign');
      const out: Record<string, unknown> = Array.isArray(target) ? (target.slice() as unknown as Record<string, unknown>) : { ...target };
      for (const source of args.slice(1)) {
        if (source === null || source === undefined) continue;
        const from = Object(source) as Record<string, unknown>;
        for (const k of Object.keys(from)) if (!FORBIDDEN_KEYS.has(k)) out[k] = from[k];
      }
      return out;
    },
  },
  is: { summary: 'Object.is: the same value', fn: (args: unknown[]) => Object.is(args[0], args[1]) },
  freeze: { summary: 'The object (values here are never changed in place)', fn: (args: unknown[]) => args[0] },
  seal: { summary: 'The object (values here are never changed in place)', fn: (args: unknown[]) => args[0] },
  isFrozen: { summary: 'Object.isFrozen', fn: (args: unknown[]) => Object.isFrozen(args[0]) },
  getOwnPropertyNames: { summary: 'The names of its own properties', fn: (args: unknown[]) => Object.getOwnPropertyNames(objectArg(args[0], 'getOwnPropertyNames')) },
  groupBy: {
    summary: 'An object of the items of an array grouped by the key a function gives each',
    fn: (args: unknown[], ctx: CallContext) => {
      if (!Array.isArray(args[0])) throw new MethodArgumentError(`Object.groupBy needs an array as its first argument, got ${describeValue(args[0])}`);
      const fn = ctx.callback(args[1], args.slice(2));
      const out: Record<string, unknown[]> = {};
      args[0].forEach((item, index) => {
        const k = key(String(fn(item, index)), 'groupBy');
        (out[k] ??= []).push(item);
      });
      return out;
    },
  },
  toString: { summary: 'The object as a string (JSON text for objects and arrays)', fn: (args: unknown[]) => (isObject(args[0]) ? JSON.stringify(args[0]) : String(args[0])) },
  valueOf: { summary: 'The value itself', fn: (args: unknown[]) => args[0] },
  propertyIsEnumerable: { summary: 'Whether the property is its own and enumerable', fn: (args: unknown[]) => Object.prototype.propertyIsEnumerable.call(objectArg(args[0], 'propertyIsEnumerable'), key(args[1], 'propertyIsEnumerable')) },
};
