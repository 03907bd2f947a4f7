// The number tasks of the WorkFlowEngine application, as JavaScript computes them.
import { describe, optionalNumber, requiredNumber, requiredString, TaskArgumentError } from './args';
import type { BuiltInTask, TaskOutcome } from './types';

const ok = (outgoing: Record<string, unknown>): TaskOutcome => ({ state: 'success', outgoing });

function radixOf(incoming: Record<string, unknown>): number | undefined {
  const radix = optionalNumber(incoming, 'radix');
  if (radix !== undefined && (!Number.isInteger(radix) || radix < 2 || radix > 36)) throw new TaskArgumentError(`radix must be an integer from 2 to 36, got ${radix}`);
  return radix;
}

/** NaN is no JSON value: a string that is not a number is a task error naming it. */
function numberOrError(value: number, what: string): number {
  if (Number.isNaN(value)) throw new TaskArgumentError(`${what} is not a number`);
  return value;
}

function digits(incoming: Record<string, unknown>, name: string, min: number, max: number): number | undefined {
  const n = optionalNumber(incoming, name);
  if (n !== undefined && (!Number.isInteger(n) || n < min || n > max)) throw new TaskArgumentError(`${name} must be an integer from ${min} to ${max}, got ${n}`);
  return n;
}

export const numberTasks: BuiltInTask[] = [
  {
    method: 'parseInt',
    summary: 'The integer at the start of str, in base radix (as JavaScript reads it when absent: 0x is hexadecimal); null (NaN) when str does not start with one',
    incoming: ['str', 'radix'],
    outgoing: ['result'],
    run(incoming) {
      // `string`: the name this console gave the text before it took the service's (workflows saved with it still run).
      const name = 'str' in incoming || !('string' in incoming) ? 'str' : 'string';
      const result = Number.parseInt(requiredString(incoming, name), optionalNumber(incoming, 'radix'));
      // NaN, as the page says; NaN is not a JSON value: the store and HTTP would turn it into null anyway (as charCodeAt's).
      return ok({ result: Number.isNaN(result) ? null : result });
    },
  },
  {
    method: 'parseFloat',
    summary: 'The number at the start of string',
    incoming: ['string'],
    outgoing: ['float'],
    run(incoming) {
      const string = requiredString(incoming, 'string');
      return ok({ float: numberOrError(Number.parseFloat(string), `string ${describe(string)}`) });
    },
  },
  {
    method: 'toFixed',
    summary: 'num as text with digits digits after the point (0 when absent)',
    incoming: ['num', 'digits'],
    outgoing: ['fixedNumber'],
    run: (incoming) => ok({ fixedNumber: requiredNumber(incoming, 'num').toFixed(digits(incoming, 'digits', 0, 100) ?? 0) }),
  },
  {
    method: 'toPrecision',
    summary: 'num as text with precision significant digits',
    incoming: ['num', 'precision'],
    outgoing: ['result'],
    run: (incoming) => ok({ result: requiredNumber(incoming, 'num').toPrecision(digits(incoming, 'precision', 1, 100)) }),
  },
  {
    method: 'numberToString',
    summary: 'num as text in base radix (10 when absent)',
    incoming: ['num', 'radix'],
    outgoing: ['numToString'],
    run: (incoming) => ok({ numToString: requiredNumber(incoming, 'num').toString(radixOf(incoming)) }),
  },
  {
    method: 'isNaN',
    summary: 'Whether value is not a number (a numeric string is a number)',
    incoming: ['value'],
    outgoing: ['result'],
    run: (incoming) => ok({ result: typeof incoming.value === 'number' ? Number.isNaN(incoming.value) : Number.isNaN(Number(incoming.value)) || incoming.value === '' || incoming.value === null }),
  },
  {
    method: 'isInteger',
    summary: 'Whether value is an integer number',
    incoming: ['value'],
    outgoing: ['result'],
    run: (incoming) => ok({ result: Number.isInteger(incoming.value) }),
  },
];
