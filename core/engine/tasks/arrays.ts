// The array tasks of the WorkFlowEngine application, with the service's names:
// an array in `arr`, the result in the task's own outgoing variable (arrayPush:
// `arr`, `elementN` → `pushedArray`). The input array is never changed in place.
// push, pop and shift (with pushToArray and shiftFromArray, their canvas names) work on the job
// variable named by `job_variable`; their array forms are arrayPush, arrayPop and arrayShift (whose
// canvas names are push, pop and shift), as the service names its methods.
import { describe, isAbsent, optionalBoolean, optionalNumber, optionalString, TaskArgumentError } from './args';
import { deepEqual } from './equal';
import type { BuiltInTask, TaskOutcome, TaskRunOptions } from './types';

const ok = (outgoing: Record<string, unknown>): TaskOutcome => ({ state: 'success', outgoing });

export function requiredArray(incoming: Record<string, unknown>, name: string): unknown[] {
  const value = incoming[name];
  if (!Array.isArray(value)) throw new TaskArgumentError(`${name} must be an array, got ${describe(value)}`);
  return value;
}

/** `elementN` is one element (an array pushed stays one element, as in the service); absent adds nothing. */
const elements = (incoming: Record<string, unknown>, name: string) => (name in incoming ? [incoming[name]] : []);

/** JavaScript's default order (the text of each value, by UTF-16 code unit), undefined last as Array.prototype.sort puts it. */
function textOrder(a: unknown, b: unknown): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? 1 : -1;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

const indexOf = (arr: unknown[], item: unknown, from: number, last: boolean) => {
  const order = arr.map((_, i) => i);
  const start = from < 0 ? Math.max(arr.length + from, 0) : from;
  const candidates = last ? order.filter((i) => i <= (from < 0 ? arr.length + from : from)).reverse() : order.filter((i) => i >= start);
  return candidates.find((i) => deepEqual(arr[i], item, false)) ?? -1;
};

function jobArray(incoming: Record<string, unknown>, options: TaskRunOptions): { name: string; arr: unknown[] } {
  const name = incoming.job_variable;
  if (typeof name !== 'string' || name === '') throw new TaskArgumentError(`job_variable must be the name of a job variable, got ${describe(name)}`);
  const current = options.jobVariables?.[name];
  if (isAbsent(current)) return { name, arr: [] };
  if (!Array.isArray(current)) throw new TaskArgumentError(`job variable ${name} must be an array, got ${describe(current)}`);
  return { name, arr: current };
}

const push: BuiltInTask = {
  method: 'push',
  summary: 'Adds item_to_push at the end of the job variable job_variable (an array; created when absent) and outputs the array',
  incoming: ['job_variable', 'item_to_push'],
  outgoing: ['job_variable_value'],
  run(incoming, options) {
    const { name, arr } = jobArray(incoming, options);
    // `item`: the name this console gave the value before it took the service's (workflows saved with it still run).
    const value = [...arr, 'item_to_push' in incoming ? incoming.item_to_push : incoming.item];
    return { state: 'success', outgoing: { job_variable_value: value }, jobVariables: { [name]: value } };
  },
};

const shift: BuiltInTask = {
  method: 'shift',
  summary: 'Removes the first item of the job variable job_variable and outputs it; failure when the array is empty',
  incoming: ['job_variable'],
  outgoing: ['shifted_item'],
  run(incoming, options): TaskOutcome {
    const { name, arr } = jobArray(incoming, options);
    if (arr.length === 0) return { state: 'failure', outgoing: {}, error: `shift: job variable ${name} has no elements` };
    return { state: 'success', outgoing: { shifted_item: arr[0] }, jobVariables: { [name]: arr.slice(1) } };
  },
};

export const arrayTasks: BuiltInTask[] = [
  {
    method: 'arrayPush',
    summary: 'arr with elementN added at its end',
    incoming: ['arr', 'elementN'],
    outgoing: ['pushedArray'],
    run: (incoming) => ok({ pushedArray: [...requiredArray(incoming, 'arr'), ...elements(incoming, 'elementN')] }),
  },
  {
    method: 'arrayLength',
    displayName: 'length (array)',
    summary: 'The number of elements of arr',
    incoming: ['arr'],
    outgoing: ['length'],
    run: (incoming) => ok({ length: requiredArray(incoming, 'arr').length }),
  },
  {
    method: 'arrayIncludes',
    summary: 'Whether arr holds searchElement (deep equality) at or after fromIndex',
    incoming: ['arr', 'searchElement', 'fromIndex'],
    outgoing: ['result'],
    run: (incoming) => ok({ result: indexOf(requiredArray(incoming, 'arr'), incoming.searchElement, optionalNumber(incoming, 'fromIndex') ?? 0, false) >= 0 }),
  },
  {
    method: 'arrayIndexOf',
    summary: 'The first index of searchElement in arr at or after fromIndex, or -1',
    incoming: ['arr', 'searchElement', 'fromIndex'],
    outgoing: ['index'],
    run: (incoming) => ok({ index: indexOf(requiredArray(incoming, 'arr'), incoming.searchElement, optionalNumber(incoming, 'fromIndex') ?? 0, false) }),
  },
  {
    method: 'arrayLastIndexOf',
    summary: 'The last index of searchElement in arr at or before fromIndex, or -1',
    incoming: ['arr', 'searchElement', 'fromIndex'],
    outgoing: ['index'],
    run(incoming) {
      const arr = requiredArray(incoming, 'arr');
      return ok({ index: indexOf(arr, incoming.searchElement, optionalNumber(incoming, 'fromIndex') ?? arr.length - 1, true) });
    },
  },
  {
    method: 'arrayPop',
    displayName: 'pop (array)',
    summary: 'arr without its last element',
    incoming: ['arr'],
    outgoing: ['poppedArray'],
    run: (incoming) => ok({ poppedArray: requiredArray(incoming, 'arr').slice(0, -1) }),
  },
  {
    method: 'arrayShift',
    displayName: 'shift (array)',
    summary: 'arr without its first element; an empty array stays empty',
    incoming: ['arr'],
    outgoing: ['shiftedArray'],
    run: (incoming) => ok({ shiftedArray: requiredArray(incoming, 'arr').slice(1) }),
  },
  {
    method: 'unshift',
    summary: 'arr with elementN added at its start',
    incoming: ['arr', 'elementN'],
    outgoing: ['unshiftedArray'],
    run: (incoming) => ok({ unshiftedArray: [...elements(incoming, 'elementN'), ...requiredArray(incoming, 'arr')] }),
  },
  {
    method: 'reverse',
    summary: 'arr in reverse order',
    incoming: ['arr'],
    outgoing: ['reversedArray'],
    run: (incoming) => ok({ reversedArray: [...requiredArray(incoming, 'arr')].reverse() }),
  },
  {
    method: 'sort',
    summary: 'arr sorted ascending (descending when reverse), objects by their property key, the first limit elements when limit is given: numbers by value, anything else as text (upper case before lower case)',
    incoming: ['arr', 'key', 'limit', 'reverse'],
    outgoing: ['response'],
    run(incoming) {
      const key = optionalString(incoming, 'key');
      const limit = optionalNumber(incoming, 'limit');
      const descending = optionalBoolean(incoming, 'reverse') ?? false;
      const sortValue = (item: unknown) => (key !== undefined && item !== null && typeof item === 'object' ? (item as Record<string, unknown>)[key] : item);
      const keyed = requiredArray(incoming, 'arr').map((item) => ({ item, value: sortValue(item) }));
      const numeric = keyed.every((k) => typeof k.value === 'number');
      const ascending = (a: unknown, b: unknown) => (numeric ? (a as number) - (b as number) : textOrder(a, b));
      keyed.sort((a, b) => (descending ? ascending(b.value, a.value) : ascending(a.value, b.value)));
      const sorted = keyed.map((k) => k.item);
      return ok({ response: limit === undefined ? sorted : sorted.slice(0, Math.max(0, limit)) });
    },
  },
  {
    method: 'map',
    summary: 'An object whose keys are the elements of arr (as text) and whose values are the elements of map at the same places (["a","b"] and [1,2] give { a: 1, b: 2 })',
    incoming: ['arr', 'map'],
    outgoing: ['result'],
    run(incoming) {
      const keys = requiredArray(incoming, 'arr');
      const values = requiredArray(incoming, 'map');
      const result: Record<string, unknown> = {};
      // Keys made from the elements' text, as an object keys them; a missing value is undefined, as zipObject gives.
      keys.forEach((key, i) => Object.defineProperty(result, String(key), { value: values[i], enumerable: true, writable: true, configurable: true }));
      return ok({ result });
    },
  },
  {
    method: 'arraySlice',
    summary: 'The elements of arr from begin up to (not including) end; negative indexes count from the end',
    incoming: ['arr', 'begin', 'end'],
    outgoing: ['slicedArray'],
    run: (incoming) => ok({ slicedArray: requiredArray(incoming, 'arr').slice(optionalNumber(incoming, 'begin') ?? 0, optionalNumber(incoming, 'end')) }),
  },
  {
    method: 'splice',
    summary: 'arr with deleteCount elements at start removed and items (an array) inserted there, and the removed elements',
    incoming: ['arr', 'start', 'deleteCount', 'items'],
    outgoing: ['splicedArray', 'removedElements'],
    run(incoming) {
      const arr = [...requiredArray(incoming, 'arr')];
      const items = isAbsent(incoming.items) ? [] : Array.isArray(incoming.items) ? incoming.items : [incoming.items];
      const removed = arr.splice(optionalNumber(incoming, 'start') ?? 0, optionalNumber(incoming, 'deleteCount') ?? arr.length, ...items);
      return ok({ splicedArray: arr, removedElements: removed });
    },
  },
  {
    method: 'concatArray',
    summary: 'arr followed by the elements of arrayN (an array, or one value)',
    incoming: ['arr', 'arrayN'],
    outgoing: ['combinedArray'],
    run(incoming) {
      // `valueN`: the name this console gave the second array before it took the service's (workflows saved with it still run).
      const more = 'arrayN' in incoming || !('valueN' in incoming) ? incoming.arrayN : incoming.valueN;
      return ok({ combinedArray: requiredArray(incoming, 'arr').concat(isAbsent(more) ? [] : (more as unknown[])) });
    },
  },
  {
    method: 'join',
    summary: 'The elements of arr as one string, separated by separator (a comma when absent)',
    incoming: ['arr', 'separator'],
    outgoing: ['joinedElements'],
    run: (incoming) => ok({ joinedElements: requiredArray(incoming, 'arr').join(optionalString(incoming, 'separator') ?? ',') }),
  },
  {
    method: 'arrayToString',
    summary: 'The elements of arr as one comma-separated string; null for an empty array',
    incoming: ['arr'],
    outgoing: ['arrayString'],
    run(incoming) {
      const arr = requiredArray(incoming, 'arr');
      return ok({ arrayString: arr.length === 0 ? null : arr.toString() });
    },
  },
  {
    method: 'isArray',
    summary: 'Whether arr is an array',
    incoming: ['arr'],
    outgoing: ['isAnArray'],
    // `obj`: the name this console gave the value before it took the service's (workflows saved with it still run).
    run: (incoming) => ok({ isAnArray: Array.isArray('arr' in incoming || !('obj' in incoming) ? incoming.arr : incoming.obj) }),
  },
  {
    method: 'fill',
    summary: 'arr with the positions from start up to end set to value',
    incoming: ['arr', 'value', 'start', 'end'],
    outgoing: ['filledArray'],
    run: (incoming) => ok({ filledArray: [...requiredArray(incoming, 'arr')].fill(incoming.value, optionalNumber(incoming, 'start') ?? 0, optionalNumber(incoming, 'end')) }),
  },
  {
    method: 'copyWithin',
    summary: 'arr with the elements from start up to end copied over the positions from target',
    incoming: ['arr', 'target', 'start', 'end'],
    outgoing: ['copiedArray'],
    run: (incoming) =>
      ok({ copiedArray: [...requiredArray(incoming, 'arr')].copyWithin(optionalNumber(incoming, 'target') ?? 0, optionalNumber(incoming, 'start') ?? 0, optionalNumber(incoming, 'end')) }),
  },
  push,
  // The service has the same task under two names.
  { ...push, method: 'pushToArray' },
  {
    method: 'pop',
    summary: 'Removes the last item of the job variable job_variable and outputs it; failure when the array is empty',
    incoming: ['job_variable'],
    outgoing: ['popped_item'],
    run(incoming, options): TaskOutcome {
      const { name, arr } = jobArray(incoming, options);
      if (arr.length === 0) return { state: 'failure', outgoing: {}, error: `pop: job variable ${name} has no elements` };
      return { state: 'success', outgoing: { popped_item: arr[arr.length - 1] }, jobVariables: { [name]: arr.slice(0, -1) } };
    },
  },
  shift,
  { ...shift, method: 'shiftFromArray' },
];
