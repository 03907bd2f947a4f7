// The JSON, Date, RegExp and Set libraries, and WorkFlowEngine.query (the engine's
// query task inside a transformation). Dates, regular expressions and sets live
// only between steps; an outgoing value holds their JSON form.
import { MethodArgumentError } from '../errors';
import { MAX_BUILT_LENGTH, describeValue, type MethodTable } from './types';
import { errorMessage } from '../../errors';
import { queryValue, QuerySyntaxError } from '../../values/json-query';
import { writtenPattern } from '../../values/written-pattern';

export const jsonMethods: MethodTable = {
  parse: {
    summary: 'The value a JSON text holds',
    fn: (args: unknown[]) => {
      // JavaScript's JSON.parse reads the text of any value (12 is 12, null is null, undefined is its SyntaxError).
      try {
        return JSON.parse(String(args[0]));
      } catch (error) {
        throw new MethodArgumentError(`JSON.parse: ${errorMessage(error)}`);
      }
    },
  },
  stringify: {
    summary: 'The JSON text of a value (indented by the third argument)',
    fn: (args: unknown[]) => {
      const space = args[2];
      // A list of names as the second argument keeps those properties alone, as in JavaScript.
      const names = Array.isArray(args[1]) ? (args[1] as (string | number)[]) : null;
      const text = JSON.stringify(args[0], names, typeof space === 'string' || typeof space === 'number' ? space : undefined);
      if (text !== undefined && text.length > MAX_BUILT_LENGTH) throw new MethodArgumentError(`JSON.stringify made more than ${MAX_BUILT_LENGTH} characters`);
      return text;
    },
  },
  'type of': { summary: 'typeof value', fn: (args: unknown[]) => typeof args[0] },
  typeof: { summary: 'typeof value', fn: (args: unknown[]) => typeof args[0] },
};

/** The date a Date method reads its receiver as (a missing receiver, null or undefined, is now). */
function toDate(value: unknown): Date {
  if (value instanceof Date) return new Date(value.getTime());
  if (value === null || value === undefined) return new Date();
  return Reflect.construct(Date, [value]);
}

const DATE_GETTERS = [
  'getDate', 'getDay', 'getFullYear', 'getHours', 'getMilliseconds', 'getMinutes', 'getMonth', 'getSeconds', 'getTime',
  'getTimezoneOffset', 'getUTCDate', 'getUTCDay', 'getUTCFullYear', 'getUTCHours', 'getUTCMilliseconds', 'getUTCMinutes',
  'getUTCMonth', 'getUTCSeconds', 'getYear', 'toDateString', 'toISOString', 'toJSON', 'toLocaleDateString', 'toLocaleString',
  'toLocaleTimeString', 'toString', 'toTimeString', 'toUTCString', 'valueOf',
] as const;
const DATE_SETTERS = [
  'setDate', 'setFullYear', 'setHours', 'setMilliseconds', 'setMinutes', 'setMonth', 'setSeconds', 'setTime', 'setUTCDate',
  'setUTCFullYear', 'setUTCHours', 'setUTCMilliseconds', 'setUTCMinutes', 'setUTCMonth', 'setUTCSeconds',
] as const;

export const dateMethods: MethodTable = {
  'new Date': {
    summary: 'A date: now, from a date string or milliseconds, or from year, month, day, ...',
    // The arguments the document leaves unset are already left out (unset-args.ts); a wired value, undefined included, is given as JavaScript would be.
    fn: (args: unknown[]) => {
      if (args.length === 0) return new Date();
      if (args.length === 1) return args[0] instanceof Date ? new Date(args[0].getTime()) : Reflect.construct(Date, [args[0]]);
      const [y = NaN, m = NaN, ...rest] = args.map(Number);
      return new Date(y, m, ...rest);
    },
  },
  now: { summary: 'Now, in milliseconds since 1970', fn: () => Date.now() },
  parse: { summary: 'A date string as milliseconds since 1970', fn: (args: unknown[]) => Date.parse(String(args[0])) },
  UTC: { summary: 'Milliseconds since 1970 of a UTC year, month, day, ...', fn: (args: unknown[]) => {
    const [year = NaN, ...rest] = args.map(Number);
    return Date.UTC(year, ...rest);
  } },
};
for (const name of DATE_GETTERS) {
  dateMethods[name] = {
    summary: `Date.prototype.${name}, on the first argument`,
    fn: (args: unknown[]) => {
      const date = toDate(args[0]);
      if (name === 'toISOString' && Number.isNaN(date.getTime())) throw new MethodArgumentError(`Date.toISOString of an invalid date (${describeValue(args[0])})`);
      // getYear is not in TypeScript's Date, hence the lookup by name.
      return Reflect.apply(Reflect.get(date, name), date, args.slice(1));
    },
  };
}
for (const name of DATE_SETTERS) {
  dateMethods[name] = {
    summary: `Date.prototype.${name} on a copy of the first argument; the new time in milliseconds`,
    fn: (args: unknown[]) => {
      const date = toDate(args[0]);
      return Reflect.apply(date[name], date, args.slice(1).map(Number));
    },
  };
}

function toRegExp(value: unknown, flags: unknown, method: string): RegExp {
  if (value instanceof RegExp) return new RegExp(value.source, value.flags);
  if (typeof value !== 'string') throw new MethodArgumentError(`RegExp.${method} needs a pattern, got ${describeValue(value)}`);
  // A pattern written as /source/flags is taken as that expression.
  const literal = writtenPattern(value);
  try {
    return literal && (flags === null || flags === undefined) ? new RegExp(literal.source, literal.flags) : new RegExp(value, flags === null || flags === undefined ? undefined : String(flags));
  } catch (error) {
    throw new MethodArgumentError(`RegExp.${method}: ${errorMessage(error)}`);
  }
}

export const regexpMethods: MethodTable = {
  'new RegExp': { summary: 'A regular expression from a pattern and flags', fn: (args: unknown[]) => toRegExp(args[0], args[1], 'new RegExp') },
  test: { summary: 'Whether the expression matches the string', fn: (args: unknown[]) => toRegExp(args[0], undefined, 'test').test(String(args[1])) },
  exec: {
    summary: 'The first match and its groups, or null',
    fn: (args: unknown[]) => {
      const match = toRegExp(args[0], undefined, 'exec').exec(String(args[1]));
      return match ? [...match] : null;
    },
  },
  toString: { summary: 'The expression as /source/flags', fn: (args: unknown[]) => toRegExp(args[0], undefined, 'toString').toString() },
  source: { summary: 'The pattern', fn: (args: unknown[]) => toRegExp(args[0], undefined, 'source').source },
  flags: { summary: 'The flags', fn: (args: unknown[]) => toRegExp(args[0], undefined, 'flags').flags },
};

function setArg(value: unknown): unknown[] {
  if (value instanceof Set) return [...value];
  if (Array.isArray(value)) return value;
  throw new MethodArgumentError(`Set methods need a set or an array, got ${describeValue(value)}`);
}

/** JavaScript's `new Set(value)`: the values of an iterable (an array, a string's characters, a set), none of null or undefined, its TypeError for another value. */
function newSet(value: unknown): Set<unknown> {
  if (value === null || value === undefined) return new Set();
  if (typeof value === 'string' || (typeof value === 'object' && typeof Reflect.get(value, Symbol.iterator) === 'function')) return new Set(value as Iterable<unknown>);
  throw new MethodArgumentError(`new Set needs an array, a string or a set, got ${describeValue(value)}`, 0);
}

export const setMethods: MethodTable = {
  'new Set': { summary: 'A set of the items of an array (or a string\'s characters)', fn: (args: unknown[]) => newSet(args[0]) },
  add: { summary: 'A copy with a value added', fn: (args: unknown[]) => new Set([...setArg(args[0]), args[1]]) },
  delete: { summary: 'A copy without a value', fn: (args: unknown[]) => new Set(setArg(args[0]).filter((v) => v !== args[1])) },
  has: { summary: 'Whether the value is in the set', fn: (args: unknown[]) => setArg(args[0]).includes(args[1]) },
  clear: { summary: 'An empty set', fn: () => new Set() },
  size: { summary: 'The number of values', fn: (args: unknown[]) => new Set(setArg(args[0])).size },
  values: { summary: 'The values, as an array', fn: (args: unknown[]) => [...new Set(setArg(args[0]))] },
  entries: { summary: 'The [value, value] pairs', fn: (args: unknown[]) => [...new Set(setArg(args[0]))].map((v) => [v, v]) },
};

export const workflowEngineMethods: MethodTable = {
  query: {
    summary: 'The value a json-query query (a.b[0].c, result.[0].value, a[name=x].c, a[*kind!=y].name) finds in an object, as the query task answers: (pass_on_null, query, obj)',
    fn: (args: unknown[]) => {
      if (typeof args[1] !== 'string') throw new MethodArgumentError(`WorkFlowEngine.query needs a query string as its second argument, got ${describeValue(args[1])}`, 1);
      try {
        return queryValue(args[2], args[1]);
      } catch (error) {
        if (error instanceof QuerySyntaxError) throw new MethodArgumentError(`WorkFlowEngine.query: ${error.message}`, 1);
        throw error;
      }
    },
  },
};
