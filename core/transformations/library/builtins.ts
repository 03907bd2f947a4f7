// Table entries for the JavaScript built-ins the explicit libraries do not list:
// any other static function of Array, Object, String, Number, Math, JSON, Date and
// RegExp, and any other read-only prototype method (the receiver is the first
// argument). The documents' meaning where the service's documentation is silent is
// the built-in of the same library and method name; this keeps a newer designer
// method from being "unsupported". Functions that change objects in place or
// reach prototypes are left out.
import { MethodArgumentError } from '../errors';
import { describeValue, type MethodTable } from './types';
import { errorMessage } from '../../errors';

const NEVER = new Set([
  'constructor', 'prototype', '__proto__', '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__',
  'defineProperty', 'defineProperties', 'setPrototypeOf', 'getPrototypeOf', 'preventExtensions', 'getOwnPropertyDescriptor',
  'getOwnPropertyDescriptors', 'getOwnPropertySymbols', 'create', 'apply', 'bind', 'call',
  // Array and Date mutators are explicit (on a copy) in their libraries.
  'push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'copyWithin',
  'compile', 'toSource',
  // Promises and raw JSON values have no place in a document's values.
  'fromAsync', 'rawJSON', 'isRawJSON',
]);

type Receiver = (value: unknown, name: string) => unknown;

const receivers: Record<string, Receiver> = {
  Array: (v, name) => {
    if (Array.isArray(v)) return v;
    throw new MethodArgumentError(`Array.${name} needs an array as its first argument, got ${describeValue(v)}`, 0);
  },
  String: (v, name) => {
    if (v === null || v === undefined) throw new MethodArgumentError(`String.${name} needs a string as its first argument, got ${describeValue(v)}`, 0);
    return String(v);
  },
  Number: (v) => (typeof v === 'number' ? v : Number(v)),
  Date: (v) => (v instanceof Date ? new Date(v.getTime()) : new Date(v as string | number)),
  RegExp: (v, name) => {
    if (v instanceof RegExp) return new RegExp(v.source, v.flags);
    if (typeof v === 'string') return new RegExp(v);
    throw new MethodArgumentError(`RegExp.${name} needs a regular expression, got ${describeValue(v)}`);
  },
};

const GLOBALS: Record<string, unknown> = { Array, Object, String, Number, Math, JSON, Date, RegExp };

function iterableToArray(result: unknown): unknown {
  return result !== null && typeof result === 'object' && !Array.isArray(result) && typeof (result as Iterator<unknown>).next === 'function' ? [...(result as Iterable<unknown>)] : result;
}

/** Adds to `libraries` an entry for each built-in function not already in it. */
export function addBuiltIns(libraries: Record<string, MethodTable>): void {
  for (const [library, global] of Object.entries(GLOBALS)) {
    const table = libraries[library];
    if (!table) continue;
    for (const name of Object.getOwnPropertyNames(global)) {
      if (NEVER.has(name) || Object.prototype.hasOwnProperty.call(table, name)) continue;
      const fn = (global as Record<string, unknown>)[name];
      if (typeof fn !== 'function') continue;
      table[name] = {
        builtIn: true,
        summary: `${library}.${name}`,
        fn: (args: unknown[]) => {
          try {
            return iterableToArray((fn as (...a: unknown[]) => unknown).apply(global, args));
          } catch (error) {
            throw new MethodArgumentError(`${library}.${name}: ${errorMessage(error)}`);
          }
        },
      };
    }
    const receiver = receivers[library];
    const proto = (global as { prototype?: object }).prototype;
    if (!receiver || !proto) continue;
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (NEVER.has(name) || name.startsWith('set') || Object.prototype.hasOwnProperty.call(table, name)) continue;
      const descriptor = Object.getOwnPropertyDescriptor(proto, name);
      if (!descriptor || typeof descriptor.value !== 'function') continue;
      const fn = descriptor.value as (...a: unknown[]) => unknown;
      table[name] = {
        builtIn: true,
        summary: `${library}.prototype.${name}, on the first argument`,
        fn: (args: unknown[]) => {
          const self = receiver(args[0], name);
          try {
            return iterableToArray(fn.apply(self, args.slice(1)));
          } catch (error) {
            throw new MethodArgumentError(`${library}.${name}: ${errorMessage(error)}`);
          }
        },
      };
    }
  }
}
