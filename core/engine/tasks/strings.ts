// The string tasks of the WorkFlowEngine application. Argument and result names
// are those of the service (e.g. codePointAt: `str`, `pos` → `codePointValue`).
// Positions count UTF-16 code units, as the service's JavaScript does.
import {
  optionalNumber,
  optionalString,
  requiredNumber,
  requiredString,
  TaskArgumentError,
  describe,
} from './args';
import type { BuiltInTask } from './types';
import { errorMessage } from '../../errors';
import { writtenPattern } from '../../values/written-pattern';

const ok = (outgoing: Record<string, unknown>) => ({ state: 'success' as const, outgoing });

function stringList(incoming: Record<string, unknown>, name: string): string[] {
  const value = incoming[name];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) {
    return value.map((item, index) => {
      if (typeof item !== 'string') throw new TaskArgumentError(`${name}[${index}] must be a string, got ${describe(item)}`);
      return item;
    });
  }
  throw new TaskArgumentError(`${name} must be a string or an array of strings, got ${describe(value)}`);
}

/**
 * A task's regular expression: its text as a pattern (`o`), or written as the designer writes
 * one (`/o/g`, values/written-pattern.ts), its flags then joined with `flags`. A pattern JavaScript refuses names the variable.
 */
function patternOf(incoming: Record<string, unknown>, name: string, flags?: string): RegExp {
  const text = requiredString(incoming, name);
  const written = writtenPattern(text);
  const all = [...new Set(`${written?.flags ?? ''}${flags ?? ''}`)].join('');
  try {
    return new RegExp(written ? written.source : text, all);
  } catch (error) {
    throw new TaskArgumentError(`${name}${flags ? ' or flags' : ''} is not a regular expression JavaScript accepts: ${errorMessage(error)}`);
  }
}

/** localeCompare's options, as Intl.Collator takes them (other keys are left out). */
function collatorOptions(options: Record<string, unknown>): Intl.CollatorOptions {
  const picked: Intl.CollatorOptions = {};
  for (const key of ['numeric', 'ignorePunctuation'] as const) if (typeof options[key] === 'boolean') picked[key] = options[key];
  const text = (key: string) => (typeof options[key] === 'string' ? options[key] : undefined);
  const caseFirst = text('caseFirst');
  const localeMatcher = text('localeMatcher');
  const sensitivity = text('sensitivity');
  const usage = text('usage');
  if (caseFirst === 'upper' || caseFirst === 'lower' || caseFirst === 'false') picked.caseFirst = caseFirst;
  if (sensitivity === 'base' || sensitivity === 'accent' || sensitivity === 'case' || sensitivity === 'variant') picked.sensitivity = sensitivity;
  if (usage === 'sort' || usage === 'search') picked.usage = usage;
  if (localeMatcher === 'lookup' || localeMatcher === 'best fit') picked.localeMatcher = localeMatcher;
  return picked;
}

export const stringTasks: BuiltInTask[] = [
  {
    method: 'codePointAt',
    summary: 'The Unicode code point of the character at pos; an out-of-range pos is an error (release 2022.1)',
    incoming: ['str', 'pos'],
    outgoing: ['codePointValue'],
    run(incoming, options) {
      const str = requiredString(incoming, 'str');
      const pos = Math.trunc(optionalNumber(incoming, 'pos') ?? 0);
      if (pos < 0 || pos >= str.length) {
        // Before 2022.1 (release notes 4.1 item 2): an empty string with status code 204.
        if (options.semantics?.codePointAtOutOfRange === 'empty-204') return ok({ codePointValue: '', status: 204 });
        const valid = str.length === 0 ? 'the string is empty, so no pos is valid' : `valid pos: 0 to ${str.length - 1}`;
        return {
          state: 'error',
          outgoing: {},
          error: `codePointAt: pos ${pos} is out of range for a string of length ${str.length} (${valid})`,
        };
      }
      return ok({ codePointValue: str.codePointAt(pos) });
    },
  },
  {
    method: 'charAt',
    summary: 'The character at index ("" when there is none)',
    incoming: ['str', 'index'],
    outgoing: ['character'],
    run: (incoming) => ok({ character: requiredString(incoming, 'str').charAt(optionalNumber(incoming, 'index') ?? 0) }),
  },
  {
    method: 'charCodeAt',
    summary: 'The UTF-16 code unit at index (null when there is no character there)',
    incoming: ['str', 'index'],
    outgoing: ['code'],
    run(incoming) {
      const code = requiredString(incoming, 'str').charCodeAt(optionalNumber(incoming, 'index') ?? 0);
      // NaN is not a JSON value: the store and HTTP would turn it into null anyway.
      return ok({ code: Number.isNaN(code) ? null : code });
    },
  },
  {
    method: 'concat',
    summary: 'str followed by stringN (a string or an array of strings)',
    incoming: ['str', 'stringN'],
    outgoing: ['combinedStrings'],
    run: (incoming) => ok({ combinedStrings: requiredString(incoming, 'str').concat(...stringList(incoming, 'stringN')) }),
  },
  {
    method: 'endsWith',
    summary: 'Whether str (its first `length` characters when given) ends with searchString',
    incoming: ['str', 'searchString', 'length'],
    outgoing: ['result'],
    run: (incoming) =>
      ok({ result: requiredString(incoming, 'str').endsWith(requiredString(incoming, 'searchString'), optionalNumber(incoming, 'length')) }),
  },
  {
    method: 'includes',
    summary: 'Whether searchString occurs in str at or after position',
    incoming: ['str', 'searchString', 'position'],
    outgoing: ['result'],
    run: (incoming) =>
      ok({ result: requiredString(incoming, 'str').includes(requiredString(incoming, 'searchString'), optionalNumber(incoming, 'position')) }),
  },
  {
    method: 'indexOf',
    summary: 'The first index of searchValue in str at or after fromIndex, or -1',
    incoming: ['str', 'searchValue', 'fromIndex'],
    outgoing: ['index'],
    run: (incoming) =>
      ok({ index: requiredString(incoming, 'str').indexOf(requiredString(incoming, 'searchValue'), optionalNumber(incoming, 'fromIndex')) }),
  },
  {
    method: 'lastIndexOf',
    summary: 'The last index of searchValue in str at or before fromIndex, or -1',
    incoming: ['str', 'searchValue', 'fromIndex'],
    outgoing: ['index'],
    run: (incoming) =>
      ok({ index: requiredString(incoming, 'str').lastIndexOf(requiredString(incoming, 'searchValue'), optionalNumber(incoming, 'fromIndex')) }),
  },
  {
    method: 'stringLength',
    displayName: 'length (string)',
    summary: 'The number of characters (UTF-16 code units) of str; 0 for an empty string',
    incoming: ['str'],
    outgoing: ['length'],
    run: (incoming) => ok({ length: requiredString(incoming, 'str').length }),
  },
  {
    // Not a name of the service's (its string length is stringLength, its array length
    // arrayLength): kept because workflows made with earlier versions of the console use it.
    method: 'length',
    summary: 'The number of characters of str, as stringLength (an earlier name of this console)',
    incoming: ['str'],
    outgoing: ['length'],
    run: (incoming) => ok({ length: requiredString(incoming, 'str').length }),
  },
  {
    method: 'localeCompare',
    summary:
      'Negative, 0 or positive as referenceStr sorts before, as or after compareString in locales (BCP 47 tags; the default locale when absent), with options such as numeric or sensitivity',
    incoming: ['referenceStr', 'compareString', 'locales', 'options'],
    outgoing: ['compareResult'],
    run(incoming) {
      const reference = requiredString(incoming, 'referenceStr');
      const compare = requiredString(incoming, 'compareString');
      const locales = incoming.locales;
      if (locales !== undefined && locales !== null && typeof locales !== 'string' && !(Array.isArray(locales) && locales.every((l) => typeof l === 'string'))) {
        throw new TaskArgumentError(`locales must be a language tag or an array of them, got ${describe(locales)}`);
      }
      const given = incoming.options;
      if (given !== undefined && given !== null && (typeof given !== 'object' || Array.isArray(given))) {
        throw new TaskArgumentError(`options must be an object, got ${describe(given)}`);
      }
      const options = given ? Object.fromEntries(Object.entries(given)) : undefined;
      try {
        const result = reference.localeCompare(compare, locales ?? undefined, options ? collatorOptions(options) : undefined);
        return ok({ compareResult: Math.sign(result) });
      } catch (error) {
        throw new TaskArgumentError(`locales or options cannot be used: ${errorMessage(error)}`);
      }
    },
  },
  {
    method: 'replace',
    summary: 'str with the first occurrence of substr replaced by newSubstr (plain text, not a pattern)',
    incoming: ['str', 'substr', 'newSubstr'],
    outgoing: ['replacedString'],
    run(incoming) {
      const str = requiredString(incoming, 'str');
      const substr = requiredString(incoming, 'substr');
      const newSubstr = optionalString(incoming, 'newSubstr') ?? '';
      // A function replacer keeps `$&`, `$1` in newSubstr literal.
      return ok({ replacedString: str.replace(substr, () => newSubstr) });
    },
  },
  {
    method: 'slice',
    summary: 'The part of str from beginIndex up to (not including) endIndex; negative indexes count from the end',
    incoming: ['str', 'beginIndex', 'endIndex'],
    outgoing: ['slicedString'],
    run: (incoming) =>
      ok({
        slicedString: requiredString(incoming, 'str').slice(optionalNumber(incoming, 'beginIndex') ?? 0, optionalNumber(incoming, 'endIndex')),
      }),
  },
  {
    method: 'split',
    summary: 'str split at each separator into at most limit parts (the whole string when separator is absent)',
    incoming: ['str', 'separator', 'limit'],
    outgoing: ['splitArray'],
    run(incoming) {
      const str = requiredString(incoming, 'str');
      const separator = optionalString(incoming, 'separator');
      const limit = optionalNumber(incoming, 'limit');
      if (limit !== undefined && (limit < 0 || !Number.isInteger(limit))) {
        throw new TaskArgumentError(`limit must be zero or a positive integer, got ${limit}`);
      }
      return ok({ splitArray: separator === undefined ? (limit === 0 ? [] : [str]) : str.split(separator, limit) });
    },
  },
  {
    method: 'startsWith',
    summary: 'Whether str starts with searchString at position',
    incoming: ['str', 'searchString', 'position'],
    outgoing: ['result'],
    run: (incoming) =>
      ok({ result: requiredString(incoming, 'str').startsWith(requiredString(incoming, 'searchString'), optionalNumber(incoming, 'position')) }),
  },
  {
    method: 'substring',
    summary: 'The part of str between indexStart and indexEnd (swapped when indexEnd is smaller)',
    incoming: ['str', 'indexStart', 'indexEnd'],
    outgoing: ['response'],
    run: (incoming) =>
      ok({ response: requiredString(incoming, 'str').substring(requiredNumber(incoming, 'indexStart'), optionalNumber(incoming, 'indexEnd')) }),
  },
  {
    method: 'toLowerCase',
    summary: 'str in lower case',
    incoming: ['str'],
    outgoing: ['lowercaseString'],
    run: (incoming) => ok({ lowercaseString: requiredString(incoming, 'str').toLowerCase() }),
  },
  {
    method: 'toUpperCase',
    summary: 'str in upper case',
    incoming: ['str'],
    outgoing: ['uppercaseString'],
    run: (incoming) => ok({ uppercaseString: requiredString(incoming, 'str').toUpperCase() }),
  },
  {
    method: 'trim',
    summary: 'str without the whitespace at both ends',
    incoming: ['str'],
    outgoing: ['noWhitespace'],
    run: (incoming) => ok({ noWhitespace: requiredString(incoming, 'str').trim() }),
  },
  {
    method: 'trimStart',
    summary: 'str without the whitespace at its start',
    incoming: ['str'],
    outgoing: ['trimmedStart'],
    run: (incoming) => ok({ trimmedStart: requiredString(incoming, 'str').trimStart() }),
  },
  {
    method: 'match',
    summary: 'The matches of regExp (with flags) in str: every match with the g flag, else the first and its groups; null when none',
    incoming: ['str', 'regExp', 'flags'],
    outgoing: ['matches'],
    run(incoming) {
      const found = requiredString(incoming, 'str').match(patternOf(incoming, 'regExp', optionalString(incoming, 'flags')));
      // The array JavaScript gives, without its index, input and groups properties (the job's variables are JSON).
      return ok({ matches: found ? [...found] : null });
    },
  },
  {
    method: 'search',
    displayName: 'search (string)',
    summary: 'The index of the first match of regexp in str, or -1',
    incoming: ['str', 'regexp'],
    outgoing: ['index'],
    run: (incoming) => ok({ index: requiredString(incoming, 'str').search(patternOf(incoming, 'regexp')) }),
  },
  {
    method: 'normalize',
    displayName: 'normalize (string)',
    summary: 'str in the Unicode normalization form form (NFC, NFD, NFKC or NFKD; NFC when absent)',
    incoming: ['str', 'form'],
    outgoing: ['normalizedString'],
    run(incoming) {
      const str = requiredString(incoming, 'str');
      const form = optionalString(incoming, 'form');
      if (form !== undefined && !['NFC', 'NFD', 'NFKC', 'NFKD'].includes(form)) throw new TaskArgumentError(`form must be one of NFC, NFD, NFKC or NFKD, got ${describe(form)}`);
      return ok({ normalizedString: str.normalize(form) });
    },
  },
  {
    method: 'stringConcat',
    summary: 'str followed by stringN (a string or an array of strings)',
    incoming: ['str', 'stringN'],
    outgoing: ['combinedStrings'],
    run: (incoming) => ok({ combinedStrings: requiredString(incoming, 'str').concat(...stringList(incoming, 'stringN')) }),
  },
  {
    method: 'padStart',
    summary: 'str padded at its start with padString (spaces when absent) to targetLength',
    incoming: ['str', 'targetLength', 'padString'],
    outgoing: ['paddedString'],
    run: (incoming) => ok({ paddedString: requiredString(incoming, 'str').padStart(requiredNumber(incoming, 'targetLength'), optionalString(incoming, 'padString')) }),
  },
  {
    method: 'padEnd',
    summary: 'str padded at its end with padString (spaces when absent) to targetLength',
    incoming: ['str', 'targetLength', 'padString'],
    outgoing: ['paddedString'],
    run: (incoming) => ok({ paddedString: requiredString(incoming, 'str').padEnd(requiredNumber(incoming, 'targetLength'), optionalString(incoming, 'padString')) }),
  },
  {
    method: 'repeat',
    summary: 'str repeated count times',
    incoming: ['str', 'count'],
    outgoing: ['repeatedString'],
    run(incoming) {
      const count = requiredNumber(incoming, 'count');
      if (count < 0 || !Number.isFinite(count) || count > 10_000) throw new TaskArgumentError(`count must be from 0 to 10000, got ${count}`);
      return ok({ repeatedString: requiredString(incoming, 'str').repeat(count) });
    },
  },
];
