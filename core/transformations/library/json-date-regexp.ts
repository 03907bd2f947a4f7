// The JSON, Date, RegExp and Set libraries, and WorkFlowEngine.query (the engine's
// query task inside a transformation). Dates, regular expressions and sets live
// only between steps; an outgoing value holds their JSON form.
import { MethodArgumentError } from '../errors';
import { MAX_BUILT_LENGTH, describeValue, type MethodTable } from './types';
import { errorMessage } from '../../errors';

export const jsonMethods: MethodTable = {
  parse: {
    summary: 'The value a JSON text holds',
    fn: (args: unknown[]) => {
      if (typeof args[0] !== 'string') throw new MethodArgumentError(`JSON.parse needs a string, got ${describeValue(args[0])}`);
      try {
        return JSON.parse(args[0]);
      } catch (error) {
        throw new MethodArgumentError(`JSON.parse: ${errorMessage(error)}`);
      }
    },
  },
  stringify: {
    summary: 'The JSON text of a value (indented by the third argument)',
    fn: (args: unknown[]) => {
      const space = args[2];
      const text = JSON.stringify(args[0], null, typeof space === 'string' || typeof space === 'number' ? space : undefined);
      if (text !== undefined && text.length > MAX_BUILT_LENGTH) throw new MethodArgumentError(`JSON.stringify made more than ${MAX_BUILT_LENGTH} characters`);
      return text;
    },
  },
  'type of': { summary: 'typeof value', fn: (args: unknown[]) => typeof args[0] },
  typeof: { summary: 'typeof value', fn: (args: unknown[]) => typeof args[0] },
};

function toDate(value: unknown, method: string): Date {
  if (value instanceof Date) return new Date(value.getTime());
  if (typeof value === 'string' || typeof value === 'number') return new Date(value);
  if (value === null || value === undefined) return new Date();
  throw new MethodArgumentError(`Date.${method} needs a date, a date string or a time in milliseconds, got ${describeValue(value)}`);
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
    fn: (args: unknown[]) => {
      const given = args.filter((a) => a !== null && a !== undefined);
      if (given.length === 0) return new Date();
      if (given.length === 1) return toDate(given[0], 'new Date');
      const [y = NaN, m = NaN, ...rest] = given.map(Number);
      return new Date(y, m, ...rest);
    },
  },
  now: { summary: 'Now, in milliseconds since 1970', fn: () => Date.now() },
  parse: { summary: 'A date string as milliseconds since 1970', fn: (args: unknown[]) => Date.parse(String(args[0])) },
  UTC: { summary: 'Milliseconds since 1970 of a UTC year, month, day, ...', fn: (args: unknown[]) => {
    const [year = NaN, ...rest] = args.filter((a) => a !== null && a !== undefined).map(Number);
    return Date.UTC(year, ...rest);
  } },
};
for (const name of DATE_GETTERS) {
  dateMethods[name] = {
    summary: `Date.prototype.${name}, on the first argument`,
    fn: (args: unknown[]) => {
      const date = toDate(args[0], name);
      if (name === 'toISOString' && Number.isNaN(date.getTime())) throw new MethodArgumentError(`Date.toISOString of an invalid date (${describeValue(args[0])})`);
      // getYear is not in TypeScript's Date, hence the lookup by name.
      return Reflect.apply(Reflect.get(date, name), date, args.slice(1).filter((a) => a !== null));
    },
  };
}
for (const name of DATE_SETTERS) {
  dateMethods[name] = {
    summary: `Date.prototype.${name} on a copy of the first argument; the new time in milliseconds`,
    fn: (args: unknown[]) => {
      const date = toDate(args[0], name);
      return Reflect.apply(date[name], date, args.slice(1).filter((a) => a !== null && a !== undefined).map(Number));
    },
  };
}

function toRegExp(value: unknown, flags: unknown, method: string): RegExp {
  if (value instanceof RegExp) return new RegExp(value.source, value.flags);
  if (typeof value !== 'string') throw new MethodArgumentError(`RegExp.${method} needs a pattern, got ${describeValue(value)}`);
  // A pattern written as /source/flags is taken as that expression.
  const literal = /^\/(.*)\/([dgimsuvy]*)$/s.exec(value);
  try {
    return literal && (flags === null || flags === undefined) ? new RegExp(literal[1] ?? '', literal[2]) : new RegExp(value, flags === null || flags === undefined ? undefined : String(flags));
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

export const setMethods: MethodTable = {
  'new Set': { summary: 'A set of the items of an array', fn: (args: unknown[]) => new Set(Array.isArray(args[0]) ? args[0] : typeof args[0] === 'string' ? [...args[0]] : []) },
  add: { summary: 'A copy with a value added', fn: (args: unknown[]) => new Set([...setArg(args[0]), args[1]]) },
  delete: { summary: 'A copy without a value', fn: (args: unknown[]) => new Set(setArg(args[0]).filter((v) => v !== args[1])) },
  has: { summary: 'Whether the value is in the set', fn: (args: unknown[]) => setArg(args[0]).includes(args[1]) },
  clear: { summary: 'An empty set', fn: () => new Set() },
  size: { summary: 'The number of values', fn: (args: unknown[]) => new Set(setArg(args[0])).size },
  values: { summary: 'The values, as an array', fn: (args: unknown[]) => [...new Set(setArg(args[0]))] },
  entries: { summary: 'The [value, value] pairs', fn: (args: unknown[]) => [...new Set(setArg(args[0]))].map((v) => [v, v]) },
};

type Segment =
  | { kind: 'key'; key: string }
  | { kind: 'filter'; all: boolean; field: string; negate: boolean; value: string };

/** The segments of a query: `a.b[0].c`, `a["key"]`, and json-query's filters `[field=value]`, `[*field!=value]`. */
function parseQuery(path: string): Segment[] {
  const re = /\s*(?:\.?([^.[\]"]+)|\[\s*(\d+)\s*\]|\[\s*"((?:[^"\\]|\\.)*)"\s*\]|\[\s*(\*?)\s*([^\]=!*]+?)\s*(!?=)\s*(?:"((?:[^"\\]|\\.)*)"|([^\]]*?))\s*\])/y;
  const text = path.trim();
  const out: Segment[] = [];
  let at = 0;
  while (at < text.length) {
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m || m[0].length === 0) throw new MethodArgumentError(`WorkFlowEngine.query: "${path}" is not a query like a.b[0].c or a[name=x].c (stopped at character ${at})`, 1);
    if (m[5] !== undefined) {
      out.push({ kind: 'filter', all: m[4] === '*', field: m[5], negate: m[6] === '!=', value: m[7] !== undefined ? String(JSON.parse(`"${m[7]}"`)) : (m[8] ?? '') });
    } else {
      out.push({ kind: 'key', key: m[1] ?? m[2] ?? String(JSON.parse(`"${m[3]}"`)) });
    }
    at = re.lastIndex;
  }
  return out;
}

function step(current: unknown, segment: Segment): unknown {
  if (current === null || typeof current !== 'object') return undefined;
  if (segment.kind === 'key') {
    return Object.prototype.hasOwnProperty.call(current, segment.key) ? Reflect.get(current, segment.key) : undefined;
  }
  if (!Array.isArray(current)) return undefined;
  const matches = (item: unknown) => {
    const field: unknown = item !== null && typeof item === 'object' ? Reflect.get(item, segment.field) : undefined;
    const equal = field !== undefined && field !== null && String(field) === segment.value;
    return segment.negate ? !equal : equal;
  };
  return segment.all ? current.filter(matches) : current.find(matches);
}

/** The value a query finds in `root`, or undefined when it leads nowhere; after `[*...]` the rest applies to each match. */
function runQuery(root: unknown, segments: Segment[]): unknown {
  let current = root;
  for (const [i, segment] of segments.entries()) {
    current = step(current, segment);
    if (segment.kind === 'filter' && segment.all) {
      const rest = segments.slice(i + 1);
      if (rest.length === 0) return current;
      return Array.isArray(current) ? current.map((item) => runQuery(item, rest)).filter((v) => v !== undefined) : undefined;
    }
  }
  return current;
}

export const workflowEngineMethods: MethodTable = {
  query: {
    summary: 'The value a query (a.b[0].c, a[name=x].c, a[*kind!=y]) finds in an object: (pass_on_null, query, obj)',
    fn: (args: unknown[]) => {
      if (typeof args[1] !== 'string') throw new MethodArgumentError(`WorkFlowEngine.query needs a query string as its second argument, got ${describeValue(args[1])}`, 1);
      return runQuery(args[2], parseQuery(args[1]));
    },
  },
};
