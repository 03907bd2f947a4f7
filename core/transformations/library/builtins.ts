// Table entries for the JavaScript built-ins the explicit libraries do not list:
// any other static function of Array, Object, String, Number, Math, JSON, Date and
// RegExp, and any other read-only prototype method (the receiver is the first
// argument). The documents' meaning where the service's documentation is silent is
// the built-in of the same library and method name; this keeps a newer designer
// method from being "unsupported". Functions that change objects in place or
// reach prototypes are left out.
import { MethodArgumentError } from '../errors';
import { describeValue, type MethodTable } from './types';
import { callByName, iteratorToArray } from './reflect';

/** `new Date(v)` with JavaScript's own reading of any value (a string parsed, an array's text, a number as milliseconds). */
const dateOf = (v: unknown): Date => Reflect.construct(Date, [v]);
import { errorMessage } from '../../errors';

const NEVER: ReadonlySet<string> = new Set([
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
  Date: (v) => (v instanceof Date ? new Date(v.getTime()) : dateOf(v)),
  RegExp: (v, name) => {
    if (v instanceof RegExp) return new RegExp(v.source, v.flags);
    if (typeof v === 'string') return new RegExp(v);
    throw new MethodArgumentError(`RegExp.${name} needs a regular expression, got ${describeValue(v)}`);
  },
};

const GLOBALS: Record<string, object> = { Array, Object, String, Number, Math, JSON, Date, RegExp };

/** Adds to `libraries` an entry for each built-in function not already in it. */
export function addBuiltIns(libraries: Record<string, MethodTable>): void {
  for (const [library, global] of Object.entries(GLOBALS)) {
    const table = libraries[library];
    if (!table) continue;
    for (const name of Object.getOwnPropertyNames(global)) {
      if (NEVER.has(name) || Object.prototype.hasOwnProperty.call(table, name)) continue;
      if (typeof Reflect.get(global, name) !== 'function') continue;
      table[name] = {
        builtIn: true,
        summary: `${library}.${name}`,
        fn: (args: unknown[]) => {
          try {
            return iteratorToArray(callByName(global, name, global, args));
          } catch (error) {
            throw new MethodArgumentError(`${library}.${name}: ${errorMessage(error)}`);
          }
        },
      };
    }
    const receiver = receivers[library];
    const proto: unknown = Reflect.get(global, 'prototype');
    if (!receiver || typeof proto !== 'object' || proto === null) continue;
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (NEVER.has(name) || name.startsWith('set') || Object.prototype.hasOwnProperty.call(table, name)) continue;
      const descriptor = Object.getOwnPropertyDescriptor(proto, name);
      if (!descriptor || typeof descriptor.value !== 'function') continue;
      table[name] = {
        builtIn: true,
        summary: `${library}.prototype.${name}, on the first argument`,
        fn: (args: unknown[]) => {
          const self = receiver(args[0], name);
          try {
            return iteratorToArray(callByName(proto, name, self, args.slice(1)));
          } catch (error) {
            throw new MethodArgumentError(`${library}.${name}: ${errorMessage(error)}`);
          }
        },
      };
    }
  }
}
