// The data and flow tasks of the WorkFlowEngine application: newVariable, merge,
// query, evaluation, delay, stub and makeData.
import { describe, isAbsent, optionalBoolean, optionalNumber, requiredNumber, requiredString, TaskArgumentError } from './args';
import { runQuery } from './query-path';
import { deepEqual, isObject } from './equal';
import type { BuiltInTask, TaskOutcome } from './types';

/** Longest delay a task may ask for; a longer wait belongs in a scheduled job. */
export const MAX_DELAY_SECONDS = 24 * 60 * 60;

/**
 * Whether `contains` can be asked at all: of a string, an array or an object. Of another operand_1
 * (null, undefined, missing, a number, a boolean) neither `contains` nor `!contains` can hold, so both
 * are false and the failure transition is taken, never a task error (the workflows' authors wire it so).
 */
const containsApplies = (haystack: unknown) => typeof haystack === 'string' || Array.isArray(haystack) || isObject(haystack);

/**
 * `contains` of a string reads operand_2 as a regular expression, as the service does: its guide for
 * workflow builders says "contains is regex-based, not substring" (a literal `9.2(4)` is written
 * `9\.2\(4\)`), and workflows rely on it (`Established|Active`). Of an array: an item equal to
 * operand_2; of an object: a key named operand_2.
 */
function contains(haystack: unknown, needle: unknown, where: string): boolean {
  if (typeof haystack === 'string') return matchesPattern(haystack, needle, where);
  if (Array.isArray(haystack)) return haystack.some((item) => deepEqual(item, needle, false));
  return isObject(haystack) && typeof needle === 'string' && needle in haystack;
}

/** Whether `text` matches operand_2 read as a pattern (a number as its digits); another operand_2 matches nothing. */
function matchesPattern(text: string, needle: unknown, where: string): boolean {
  if (typeof needle !== 'string' && typeof needle !== 'number') return false;
  let pattern: RegExp;
  try {
    pattern = new RegExp(String(needle));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new TaskArgumentError(`${where}.operand_2 ${describe(needle)} is not a valid regular expression (contains reads it as a pattern; write \\( \\) \\[ \\. \\+ \\* \\? \\| to match those characters as text): ${reason}`);
  }
  return pattern.test(text);
}

/**
 * `<`, `<=`, `>`, `>=` as JavaScript compares, as the service does: the exports
 * rely on it (`loop[*returnStatus=FAILED]` `<` 1 holds for an empty array).
 */
function compareOrdered(a: unknown, b: unknown, operator: '<' | '<=' | '>' | '>='): boolean {
  const x = a as number;
  const y = b as number;
  return operator === '<' ? x < y : operator === '<=' ? x <= y : operator === '>' ? x > y : x >= y;
}

const OPERATORS: Record<string, (a: unknown, b: unknown, where: string) => boolean> = {
  '==': (a, b) => deepEqual(a, b, true),
  '!=': (a, b) => !deepEqual(a, b, true),
  '===': (a, b) => deepEqual(a, b, false),
  '!==': (a, b) => !deepEqual(a, b, false),
  '<': (a, b) => compareOrdered(a, b, '<'),
  '<=': (a, b) => compareOrdered(a, b, '<='),
  '>': (a, b) => compareOrdered(a, b, '>'),
  '>=': (a, b) => compareOrdered(a, b, '>='),
  contains: (a, b, where) => containsApplies(a) && contains(a, b, where),
  '!contains': (a, b, where) => containsApplies(a) && !contains(a, b, where),
};
export const EVALUATION_OPERATORS = Object.keys(OPERATORS);

/**
 * An operator the service does not know: its evaluation is false, with no outgoing value, and the
 * failure transition is taken (the service's guide for workflow builders: "an invalid operator
 * silently returns false"). Here the record's error names the operator, so it is not silent.
 */
class UnknownOperator extends Error {}

function evaluateOne(item: unknown, where: string): boolean {
  if (!isObject(item)) throw new TaskArgumentError(`${where} must be an object { operand_1, operator, operand_2 }, got ${describe(item)}`);
  const operator = item.operator;
  const compare = typeof operator === 'string' ? OPERATORS[operator] : undefined;
  if (!compare) throw new UnknownOperator(`${where}.operator ${describe(operator)} is not one of ${EVALUATION_OPERATORS.join(' ')}`);
  let left = item.operand_1;
  if (typeof item.query === 'string' && item.query !== '') left = runQuery(left, item.query);
  let right = item.operand_2;
  if (typeof item.rightQuery === 'string' && item.rightQuery !== '') right = runQuery(right, item.rightQuery);
  return compare(left, right, where);
}

function evaluate(incoming: Record<string, unknown>): boolean {
  const groups = incoming.evaluation_groups;
  if (!Array.isArray(groups) || groups.length === 0) {
    throw new TaskArgumentError(`evaluation_groups must be a non-empty array of groups, got ${describe(groups)}`);
  }
  const allTrue = optionalBoolean(incoming, 'all_true_flag') ?? true;
  const results = groups.map((group, g) => {
    const where = `evaluation_groups[${g}]`;
    if (!isObject(group) || !Array.isArray(group.evaluations) || group.evaluations.length === 0) {
      throw new TaskArgumentError(`${where} must be { all_true_flag, evaluations: [ ... ] } with at least one evaluation`);
    }
    const groupAllTrue = optionalBoolean(group, 'all_true_flag') ?? true;
    const each = group.evaluations.map((item, i) => evaluateOne(item, `${where}.evaluations[${i}]`));
    return groupAllTrue ? each.every(Boolean) : each.some(Boolean);
  });
  return allTrue ? results.every(Boolean) : results.some(Boolean);
}

function merge(data: unknown): unknown {
  if (!Array.isArray(data)) throw new TaskArgumentError(`data_to_merge must be an array of { key, value }, got ${describe(data)}`);
  const entries = data.map((entry, i) => {
    if (!isObject(entry)) throw new TaskArgumentError(`data_to_merge[${i}] must be an object { key, value }, got ${describe(entry)}`);
    const key = entry.key;
    if (!isAbsent(key) && key !== '' && typeof key !== 'string') throw new TaskArgumentError(`data_to_merge[${i}].key must be a string, got ${describe(key)}`);
    return { key: typeof key === 'string' && key !== '' ? key : undefined, value: entry.value };
  });
  const keyed = entries.filter((entry) => entry.key !== undefined);
  if (keyed.length === 0) return entries.map((entry) => entry.value);
  if (keyed.length !== entries.length) {
    const missing = entries.findIndex((entry) => entry.key === undefined);
    throw new TaskArgumentError(`data_to_merge[${missing}] has no key while others do: give every entry a unique key, or none`);
  }
  const out: Record<string, unknown> = {};
  for (const [i, entry] of entries.entries()) {
    const key = entry.key;
    if (key === undefined) continue; // never: every entry has a key here
    if (Object.hasOwn(out, key)) throw new TaskArgumentError(`data_to_merge[${i}].key "${key}" is used twice: keys must be unique`);
    out[key] = entry.value;
  }
  return out;
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first (the worker hands the task back). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export const dataTasks: BuiltInTask[] = [
  {
    method: 'newVariable',
    summary: 'Sets the job variable `name` to value, and outputs value',
    incoming: ['name', 'value'],
    outgoing: ['value'],
    run(incoming) {
      const name = requiredString(incoming, 'name');
      if (!/^[A-Za-z_][\w-]*$/.test(name)) {
        throw new TaskArgumentError(`name ${describe(name)} is not a valid variable name (letters, digits, _ and -, not starting with a digit)`);
      }
      return { state: 'success', outgoing: { value: incoming.value }, jobVariables: { [name]: incoming.value } };
    },
  },
  {
    method: 'merge',
    summary: 'Combines data_to_merge ([{ key, value }]) into an object when every entry has a unique key, or an array of the values when none has',
    incoming: ['data_to_merge'],
    outgoing: ['merged_object'],
    run: (incoming) => ({ state: 'success', outgoing: { merged_object: merge(incoming.data_to_merge) } }),
  },
  {
    method: 'query',
    summary: 'The value a json-query query (e.g. `device.interfaces[0].name`, `result.[0].value`, `artifacts.[*type=workflow].name`) finds in obj, as JST\'s WorkFlowEngine.query finds it; nothing found is a failure unless pass_on_null',
    incoming: ['pass_on_null', 'query', 'obj'],
    outgoing: ['return_data'],
    run(incoming): TaskOutcome {
      const path = requiredString(incoming, 'query');
      const found = runQuery(incoming.obj, path);
      if (isAbsent(found) && !(optionalBoolean(incoming, 'pass_on_null') ?? false)) {
        return { state: 'failure', outgoing: { return_data: found }, error: `query "${path}" found ${describe(found)} in obj (set pass_on_null to go on)` };
      }
      return { state: 'success', outgoing: { return_data: found } };
    },
  },
  {
    method: 'evaluation',
    summary: 'Evaluates groups of comparisons; ends in success when true and in failure when false (a comparison that cannot hold, such as contains of a null or missing operand, is false, never an error, as is an operator the service does not know; contains of a string reads operand_2 as a regular expression)',
    incoming: ['all_true_flag', 'evaluation_groups'],
    outgoing: ['return_value'],
    run(incoming): TaskOutcome {
      let value: boolean;
      try {
        value = evaluate(incoming);
      } catch (error) {
        if (!(error instanceof UnknownOperator)) throw error;
        return { state: 'failure', outgoing: {}, error: `${error.message}: the evaluation is false, as the service takes it` };
      }
      return value
        ? { state: 'success', outgoing: { return_value: true } }
        : { state: 'failure', outgoing: { return_value: false }, error: 'the evaluation is false' };
    },
  },
  {
    method: 'delay',
    summary: `Waits time seconds (at most ${MAX_DELAY_SECONDS}) and outputs the wait in milliseconds`,
    incoming: ['time'],
    outgoing: ['time_in_milliseconds'],
    run(incoming): TaskOutcome {
      const seconds = requiredNumber(incoming, 'time');
      if (seconds < 0 || seconds > MAX_DELAY_SECONDS) {
        throw new TaskArgumentError(`time must be between 0 and ${MAX_DELAY_SECONDS} seconds, got ${seconds}`);
      }
      return { state: 'success', outgoing: { time_in_milliseconds: seconds * 1000 }, after: seconds * 1000 };
    },
  },
  {
    method: 'stub',
    summary: 'A stand-in: waits delay seconds (none when empty), then ends in type (success or error) with response passed through',
    incoming: ['type', 'delay', 'response'],
    outgoing: ['response'],
    run(incoming): TaskOutcome {
      const type = incoming.type;
      if (type !== 'success' && type !== 'error') throw new TaskArgumentError(`type must be "success" or "error", got ${describe(type)}`);
      const seconds = incoming.delay === '' ? 0 : (optionalNumber(incoming, 'delay') ?? 0);
      if (seconds < 0 || seconds > MAX_DELAY_SECONDS) {
        throw new TaskArgumentError(`delay must be between 0 and ${MAX_DELAY_SECONDS} seconds, got ${seconds}`);
      }
      const response = incoming.response;
      const after = seconds > 0 ? { after: seconds * 1000 } : {};
      return type === 'success'
        ? { state: 'success', outgoing: { response }, ...after }
        : { state: 'error', outgoing: { response }, error: typeof response === 'string' && response ? response : 'stub ended in error, as its type asks', ...after };
    },
  },
  {
    method: 'makeData',
    summary: 'input with each <!name!> replaced by variables.name, converted to outputType (boolean, json, number or string)',
    incoming: ['input', 'outputType', 'variables'],
    outgoing: ['output'],
    run: (incoming) => ({ state: 'success', outgoing: { output: makeData(incoming) } }),
  },
];

function makeData(incoming: Record<string, unknown>): unknown {
  const input = incoming.input;
  const type = incoming.outputType;
  if (typeof type !== 'string' || !['boolean', 'json', 'number', 'string'].includes(type)) {
    throw new TaskArgumentError(`outputType must be boolean, json, number or string, got ${describe(type)}`);
  }
  if (typeof input !== 'string' && typeof input !== 'number' && typeof input !== 'boolean') {
    throw new TaskArgumentError(`input must be a string, got ${describe(input)}`);
  }
  const variables = isObject(incoming.variables) ? incoming.variables : {};
  let text = String(input);
  text = text.replace(/<!([^!<>]+)!>/g, (whole, name: string) => {
    if (!(name in variables)) throw new TaskArgumentError(`input refers to <!${name}!> but variables has no "${name}"`);
    const value = variables[name];
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
  if (type === 'string') return text;
  if (type === 'number') {
    const n = text.trim() === '' ? Number.NaN : Number(text);
    if (Number.isNaN(n)) throw new TaskArgumentError(`input ${describe(text)} is not a number`);
    return n;
  }
  if (type === 'boolean') {
    if (text.trim() === 'true') return true;
    if (text.trim() === 'false') return false;
    throw new TaskArgumentError(`input ${describe(text)} is not true or false`);
  }
  try {
    return JSON.parse(text);
  } catch {
    // The parser's own wording changes between Node releases; the text itself is what to fix.
    throw new TaskArgumentError(`input is not valid JSON (outputType json): ${describe(text)}`);
  }
}
