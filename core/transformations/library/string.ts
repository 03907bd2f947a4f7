// The String library: String.* and String.prototype.* with the string as the first
// argument, `new String` (a string, not a wrapper object), `length`, and the
// template literal the designer's template steps use.
import { MethodArgumentError } from '../errors';
import { MAX_BUILT_LENGTH, describeValue, type MethodTable } from './types';
import { callByName, iteratorToArray } from './reflect';
import { errorMessage } from '../../errors';

function stringArg(value: unknown, method: string): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) throw new MethodArgumentError(`String.${method} needs a string as its first argument, got ${describeValue(value)}`, 0);
  return String(value);
}

/** The names of a template's placeholders, each once, in the order they first appear: the template step's arguments. */
export function templateNames(template: string): string[] {
  const names: string[] = [];
  for (const [, name = ''] of template.matchAll(/\$\{\s*([^}]*?)\s*\}/g)) if (!names.includes(name)) names.push(name);
  return names;
}

/** A template with each `${name}` replaced by its argument, as a JavaScript template literal would print it. */
export function fillTemplate(template: string, args: unknown[]): string {
  const names = templateNames(template);
  const text = template.replace(/\$\{\s*([^}]*?)\s*\}/g, (_whole, name: string) => printable(args[names.indexOf(name)]));
  if (text.length > MAX_BUILT_LENGTH) throw new MethodArgumentError(`the template makes a string of ${text.length} characters, more than ${MAX_BUILT_LENGTH}`);
  return text;
}

function printable(value: unknown): string {
  if (value !== null && typeof value === 'object' && !(value instanceof Date) && !(value instanceof RegExp)) {
    return Array.isArray(value) ? value.map((item) => (item === null || item === undefined ? '' : printable(item))).join(',') : '[object Object]';
  }
  return String(value);
}

function sized(count: unknown, method: string, base: number): number {
  const n = Number(count ?? 0);
  if (Number.isFinite(n) && n * Math.max(base, 1) > MAX_BUILT_LENGTH) throw new MethodArgumentError(`String.${method} would make more than ${MAX_BUILT_LENGTH} characters`);
  return n;
}

const PROTOTYPE = [
  'at', 'charAt', 'charCodeAt', 'codePointAt', 'concat', 'endsWith', 'includes', 'indexOf', 'lastIndexOf',
  'localeCompare', 'match', 'matchAll', 'normalize', 'replace', 'replaceAll', 'search', 'slice', 'split',
  'startsWith', 'substring', 'substr', 'toLocaleLowerCase', 'toLocaleUpperCase', 'toLowerCase', 'toUpperCase',
  'toString', 'trim', 'trimStart', 'trimEnd', 'trimLeft', 'trimRight', 'valueOf', 'isWellFormed', 'toWellFormed',
] as const;


export const stringMethods: MethodTable = {
  // JavaScript's String(value): String() of no argument (one the designer left unset, unset-args.ts) is "", String(null) "null".
  'new String': { summary: 'The value as a string (String(value); "" when unset)', fn: (args: unknown[]) => (args.length === 0 ? '' : printable(args[0])) },
  length: { summary: 'The number of UTF-16 units', fn: (args: unknown[]) => stringArg(args[0], 'length').length },
  templateLiteral: {
    summary: 'A template with each ${name} replaced by its argument',
    fn: (args: unknown[]) => fillTemplate(stringArg(args[0], 'templateLiteral'), args.slice(1)),
  },
  fromCharCode: { summary: 'A string from UTF-16 units', fn: (args: unknown[]) => String.fromCharCode(...args.map(Number)) },
  fromCodePoint: {
    summary: 'A string from code points',
    fn: (args: unknown[]) => {
      try {
        return String.fromCodePoint(...args.map(Number));
      } catch (error) {
        throw new MethodArgumentError(`String.fromCodePoint: ${errorMessage(error)}`);
      }
    },
  },
  raw: { summary: 'The string as given', fn: (args: unknown[]) => stringArg(args[0], 'raw') },
  repeat: {
    summary: 'The string repeated',
    fn: (args: unknown[]) => {
      const text = stringArg(args[0], 'repeat');
      const count = sized(args[1], 'repeat', text.length);
      // JavaScript's own reading of the count: NaN is 0, a negative or infinite one its RangeError.
      if (count < 0 || count === Infinity) throw new MethodArgumentError(`String.repeat count ${String(args[1])} must be 0 or more`);
      return text.repeat(count);
    },
  },
  padStart: { summary: 'Padded at the start to a length', fn: (args: unknown[]) => stringArg(args[0], 'padStart').padStart(sized(args[1], 'padStart', 1), args[2] === undefined ? undefined : String(args[2])) },
  padEnd: { summary: 'Padded at the end to a length', fn: (args: unknown[]) => stringArg(args[0], 'padEnd').padEnd(sized(args[1], 'padEnd', 1), args[2] === undefined ? undefined : String(args[2])) },
};

for (const name of PROTOTYPE) {
  stringMethods[name] = {
    summary: `String.prototype.${name}, on the first argument`,
    fn: (args: unknown[]) => {
      const text = stringArg(args[0], name);
      const rest = args.slice(1);
      try {
        const result = callByName(String.prototype, name, text, rest);
        if (typeof result === 'string' && result.length > MAX_BUILT_LENGTH) throw new MethodArgumentError(`String.${name} made more than ${MAX_BUILT_LENGTH} characters`);
        return iteratorToArray(result);
      } catch (error) {
        if (error instanceof MethodArgumentError) throw error;
        throw new MethodArgumentError(`String.${name}: ${errorMessage(error)}`);
      }
    },
  };
}
