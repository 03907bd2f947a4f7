// The tasks added from the service's 2022.1 task reference: each from its documented behaviour.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtInTasks, runBuiltInTask } from '../../../core/engine/tasks/library';
import { formatTime, parseTime } from '../../../core/engine/tasks/time';

const run = (method: string, incoming: Record<string, unknown>, jobVariables?: Record<string, unknown>) => runBuiltInTask(method, incoming, { jobVariables });
const out = async (method: string, incoming: Record<string, unknown>) => (await run(method, incoming)).outgoing;

describe('the service\'s variable names', () => {
  it.each([
    ['stub', ['type', 'delay', 'response'], ['response']],
    ['delay', ['time'], ['time_in_milliseconds']],
    ['makeData', ['input', 'outputType', 'variables'], ['output']],
    ['arrayPush', ['arr', 'elementN'], ['pushedArray']],
    ['arrayIncludes', ['arr', 'searchElement', 'fromIndex'], ['result']],
    ['setObjectKey', ['obj', 'path', 'value'], ['object']],
    ['getTime', ['timezone', 'offsetDuration', 'format'], ['time']],
    ['calculateTimeDiff', ['firstTime', 'secondTime'], ['timeDiff']],
    ['merge', ['data_to_merge'], ['merged_object']],
    ['forEach', ['data_array'], ['current_item']],
    ['ViewData', ['header', 'message', 'body', 'variables', 'btn_success', 'btn_failure'], []],
  ])('%s: %j → %j', (method, incoming, outgoing) => {
    expect(builtInTasks.get(method)).toMatchObject({ incoming, outgoing });
  });
});

describe('stub', () => {
  it('passes response through in the state type asks for', async () => {
    expect(await run('stub', { type: 'success', delay: '', response: 'awesome' })).toEqual({ state: 'success', outgoing: { response: 'awesome' } });
    expect(await run('stub', { type: 'error', delay: '', response: 'down' })).toEqual({ state: 'error', outgoing: { response: 'down' }, error: 'down' });
    expect(await run('stub', { type: 'maybe' })).toMatchObject({ state: 'error', error: 'stub: type must be "success" or "error", got "maybe"' });
  });

  it('waits delay seconds first', async () => {
    const started = Date.now();
    await run('stub', { type: 'success', delay: 0.05, response: '' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });
});

describe('makeData', () => {
  it('converts input to outputType, filling <!name!> from variables', async () => {
    expect(await out('makeData', { input: 'pass', outputType: 'string', variables: '' })).toEqual({ output: 'pass' });
    expect(await out('makeData', { input: '42', outputType: 'number' })).toEqual({ output: 42 });
    expect(await out('makeData', { input: 'true', outputType: 'boolean' })).toEqual({ output: true });
    expect(await out('makeData', { input: '{"host": "<!h!>", "port": <!p!>}', outputType: 'json', variables: { h: 'r1', p: 22 } })).toEqual({ output: { host: 'r1', port: 22 } });
  });

  it('is an error naming what does not convert', async () => {
    expect(await run('makeData', { input: 'x', outputType: 'number' })).toMatchObject({ state: 'error', error: 'makeData: input "x" is not a number' });
    expect(await run('makeData', { input: '{', outputType: 'json' })).toMatchObject({ state: 'error', error: expect.stringContaining('not valid JSON') });
    expect(await run('makeData', { input: 'a', outputType: 'xml' })).toMatchObject({ state: 'error', error: expect.stringContaining('outputType must be boolean, json, number or string') });
  });
});

describe('evaluation', () => {
  const evaluate = (evaluations: object[], all_true_flag = true) => run('evaluation', { all_true_flag, evaluation_groups: [{ all_true_flag, evaluations }] });

  it('supports every documented operator, and query / rightQuery on each operand', async () => {
    const cases: [unknown, string, unknown, boolean][] = [
      ['a', '==', 'a', true], [1, '==', '1', true], [1, '!=', 2, true], [1, '<', 2, true], [2, '<=', 2, true],
      [3, '>', 2, true], [2, '>=', 3, false], ['abc', 'contains', 'b', true], [['x', 'y'], 'contains', 'y', true], ['abc', '!contains', 'z', true],
    ];
    for (const [operand_1, operator, operand_2, expected] of cases) {
      expect((await evaluate([{ operand_1, operator, operand_2 }])).outgoing, `${JSON.stringify(operand_1)} ${operator} ${JSON.stringify(operand_2)}`).toEqual({ return_value: expected });
    }
    const result = { response: { status: 'FINISHED' } };
    expect(await evaluate([{ operand_1: result, operator: '==', operand_2: 'FINISHED', query: 'response.status', rightQuery: '' }])).toEqual({ state: 'success', outgoing: { return_value: true } });
    expect(await evaluate([{ operand_1: 'FINISHED', operator: '==', operand_2: result, query: '', rightQuery: 'response.status' }])).toMatchObject({ state: 'success' });
  });

  it('takes the failure transition, never a task error, for contains and !contains of a null, undefined, missing or non-container operand_1', async () => {
    const rows: Record<string, unknown>[] = [
      { operand_1: null, operand_2: 'a' },
      { operand_1: undefined, operand_2: 'a' },
      { operand_2: 'a' },
      { operand_1: 12, operand_2: 1 },
      { operand_1: true, operand_2: 'true' },
      // a query that finds nothing: json-query answers null
      { operand_1: { a: 1 }, query: 'missing.list', operand_2: 'a' },
    ];
    for (const row of rows) {
      for (const operator of ['contains', '!contains']) {
        expect(await evaluate([{ ...row, operator }]), `${operator} ${JSON.stringify(row)}`).toEqual({ state: 'failure', outgoing: { return_value: false }, error: 'the evaluation is false' });
      }
    }
    // In a group with all_true_flag false, another evaluation that holds still decides.
    expect((await evaluate([{ operand_1: null, operator: 'contains', operand_2: 'a' }, { operand_1: 1, operator: '==', operand_2: 1 }], false)).state).toBe('success');
  });

  it('reads operand_2 of contains on a string as a regular expression, as the service\'s guide for builders says', async () => {
    const holds = async (operand_1: unknown, operand_2: unknown, operator = 'contains') => (await evaluate([{ operand_1, operator, operand_2 }])).outgoing;
    // The guide's own example: `9.2(4)` is a pattern (the parentheses a group), `9\.2\(4\)` the text.
    expect(await holds('IOS 15.2(4)M', '15.2(4)')).toEqual({ return_value: false });
    expect(await holds('IOS 15.2(4)M', '15\\.2\\(4\\)')).toEqual({ return_value: true });
    expect(await holds('BGP state = Established', 'Established|Active')).toEqual({ return_value: true });
    expect(await holds('GigabitEthernet0/1', '^Gig')).toEqual({ return_value: true });
    expect(await holds('TenGigabitEthernet0/1', '^Gig')).toEqual({ return_value: false });
    expect(await holds('port 8443', 8443)).toEqual({ return_value: true });
    expect(await holds('link is down', 'up|Up', '!contains')).toEqual({ return_value: true });
    // An array holds an equal item and an object a key, whatever the characters.
    expect(await holds(['15.2(4)M'], '15.2(4)M')).toEqual({ return_value: true });
    expect(await holds({ 'a.b': 1 }, 'a.b')).toEqual({ return_value: true });
  });

  it('is false, with no outgoing value, for an operator the service does not know (its failure transition), naming the operator', async () => {
    for (const operator of ['regex', 'startsWith', 'in', undefined]) {
      const result = await evaluate([{ operand_1: 'abc', operator, operand_2: 'a' }, { operand_1: 1, operator: '==', operand_2: 1 }], false);
      expect(result, String(operator)).toEqual({
        state: 'failure',
        outgoing: {},
        error: `evaluation_groups[0].evaluations[0].operator ${operator === undefined ? 'undefined' : `"${operator}"`} is not one of == != === !== < <= > >= contains !contains: the evaluation is false, as the service takes it`,
      });
    }
  });

  it('ends in error naming operand_2 when it is no regular expression JavaScript reads', async () => {
    const result = await evaluate([{ operand_1: 'IOS 15.2(4)M', operator: 'contains', operand_2: '15.2(4' }]);
    expect(result.state).toBe('error');
    expect(result.error).toContain('evaluation_groups[0].evaluations[0].operand_2 "15.2(4" is not a valid regular expression');
  });

  it('agrees with JavaScript\'s RegExp (the oracle) on generated texts and patterns', async () => {
    const piece = fc.constantFrom('a', 'b', '.', '|', '^', '$', '*', '+', '?', '(', ')', '[', ']', '\\', '1', ' ');
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: fc.constantFrom('a', 'b', '.', '(', ')', '1', ' ') }), fc.array(piece, { maxLength: 6 }).map((p) => p.join('')), async (text, pattern) => {
        let expected: boolean | 'error';
        try {
          expected = new RegExp(pattern).test(text);
        } catch {
          expected = 'error';
        }
        const result = await evaluate([{ operand_1: text, operator: 'contains', operand_2: pattern }]);
        expect(result.state === 'error' ? 'error' : result.outgoing.return_value).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('combines with all_true_flag: every (true) or any (false), in a group and across groups; false is the failure state', async () => {
    const t = { operand_1: 1, operator: '==', operand_2: 1 };
    const f = { operand_1: 1, operator: '==', operand_2: 2 };
    expect((await evaluate([t, f], true)).state).toBe('failure');
    expect((await evaluate([t, f], false)).state).toBe('success');
    expect((await run('evaluation', { all_true_flag: false, evaluation_groups: [{ all_true_flag: true, evaluations: [f] }, { all_true_flag: true, evaluations: [t] }] })).outgoing).toEqual({ return_value: true });
  });
});

describe('array tasks', () => {
  it('work on a copy and answer under their own names', async () => {
    const arr = [1, 2, 3];
    expect(await out('arrayPush', { arr, elementN: { name: 'x' } })).toEqual({ pushedArray: [1, 2, 3, { name: 'x' }] });
    expect(await out('arrayPush', { arr: [], elementN: [1] })).toEqual({ pushedArray: [[1]] });
    expect(arr).toEqual([1, 2, 3]);
    expect(await out('arrayLength', { arr })).toEqual({ length: 3 });
    expect(await out('arrayIncludes', { arr: ['1', '2', '3'], searchElement: '2' })).toEqual({ result: true });
    expect(await out('arrayIncludes', { arr: [{ a: 1 }], searchElement: { a: 1 } })).toEqual({ result: true });
    expect(await out('arrayIncludes', { arr, searchElement: 1, fromIndex: 1 })).toEqual({ result: false });
    expect(await out('arrayIndexOf', { arr: [1, 2, 1], searchElement: 1, fromIndex: 1 })).toEqual({ index: 2 });
    expect(await out('arrayLastIndexOf', { arr: [1, 2, 1], searchElement: 1 })).toEqual({ index: 2 });
    expect(await out('arrayPop', { arr })).toEqual({ poppedArray: [1, 2] });
    expect(await out('arrayShift', { arr })).toEqual({ shiftedArray: [2, 3] });
    expect(await out('unshift', { arr: ['oldDevice'], elementN: 'newDevice' })).toEqual({ unshiftedArray: ['newDevice', 'oldDevice'] });
    expect(await out('reverse', { arr: ['1', '2', '3'] })).toEqual({ reversedArray: ['3', '2', '1'] });
    expect(await out('sort', { arr: [10, 9, 1] })).toEqual({ response: [1, 9, 10] });
    // join's page (docs/join-task-itential-platform): the devices joined by a comma, as joinedElements.
    expect(await out('join', { arr: ['Device1', 'Device2', 'Device3', 'Device4'], separator: ',' })).toEqual({ joinedElements: 'Device1,Device2,Device3,Device4' });
    expect(await run('arrayLength', { arr: 'abc' })).toMatchObject({ state: 'error', error: 'arrayLength: arr must be an array, got "abc"' });
  });

  it('push and pop change the job variable named by job_variable; pop on an empty array is a failure', async () => {
    expect(await run('push', { job_variable: 'fruits', item_to_push: 'pear' }, { fruits: ['apple'] })).toEqual({ state: 'success', outgoing: { job_variable_value: ['apple', 'pear'] }, jobVariables: { fruits: ['apple', 'pear'] } });
    // A workflow saved with the name this console used before (item) still pushes its value.
    expect(await run('push', { job_variable: 'fruits', item: 'pear' }, { fruits: ['apple'] })).toMatchObject({ state: 'success', jobVariables: { fruits: ['apple', 'pear'] } });
    expect(await run('shift', { job_variable: 'fruits' }, { fruits: ['apple', 'banana'] })).toEqual({ state: 'success', outgoing: { shifted_item: 'apple' }, jobVariables: { fruits: ['banana'] } });
    expect(await run('shift', { job_variable: 'fruits' }, { fruits: [] })).toMatchObject({ state: 'failure', error: 'shift: job variable fruits has no elements' });
    expect(await run('pop', { job_variable: 'fruits' }, { fruits: ['apple', 'orange'] })).toEqual({ state: 'success', outgoing: { popped_item: 'orange' }, jobVariables: { fruits: ['apple'] } });
    expect(await run('pop', { job_variable: 'fruits' }, { fruits: [] })).toMatchObject({ state: 'failure' });
    expect(await run('shiftFromArray', { job_variable: 'fruits' }, { fruits: ['apple', 'banana'] })).toEqual({ state: 'success', outgoing: { shifted_item: 'apple' }, jobVariables: { fruits: ['banana'] } });
    expect(await run('push', { job_variable: 'n', item_to_push: 1 }, { n: 5 })).toMatchObject({ state: 'error', error: 'push: job variable n must be an array, got number 5' });
  });
});

describe('object tasks', () => {
  it('setObjectKey sets the property at path, creating the levels that are missing', async () => {
    expect(await out('setObjectKey', { obj: {}, path: ['serials'], value: ['Q2-1'] })).toEqual({ object: { serials: ['Q2-1'] } });
    const obj = { user: { name: 'John' } };
    expect(await out('setObjectKey', { obj, path: ['user', 'location'], value: 'USA' })).toEqual({ object: { user: { name: 'John', location: 'USA' } } });
    expect(obj).toEqual({ user: { name: 'John' } });
    expect(await out('setObjectKey', { obj: { a: [0, 1] }, path: 'a[1]', value: 9 })).toEqual({ object: { a: [0, 9] } });
  });

  it('deepmerge folds the objects of data_to_merge in order, as the reference\'s examples show', async () => {
    const rows = (...values: unknown[]) => ({ data_to_merge: values.map((value) => ({ key: '', value })) });
    // Three flat objects.
    expect(await out('deepmerge', rows({ customer: 'Wet Paint' }, { service: 'L3VPN' }, { active: true }))).toEqual({ merged_object: { customer: 'Wet Paint', service: 'L3VPN', active: true } });
    // At any depth.
    const apple = (leaf: object) => ({ fruit: { apple: { shape: { round: { red: leaf } } } } });
    expect(await out('deepmerge', rows(apple({ flavor: 'sweet' }), apple({ ripe: false })))).toEqual({ merged_object: apple({ flavor: 'sweet', ripe: false }) });
    // A conflicting scalar: the last wins. Arrays: item by item, so one of as many items replaces the first, and object items merge.
    expect(await out('deepmerge', rows({ a: 1, l: [1, 2] }, { a: 2, l: [3, 4] }))).toEqual({ merged_object: { a: 2, l: [3, 4] } });
    expect(await out('deepmerge', rows({ ports: [{ id: 1 }, { id: 2 }] }, { ports: [{ up: true }, { up: false }] }))).toEqual({ merged_object: { ports: [{ id: 1, up: true }, { id: 2, up: false }] } });
    // The row's key is not used; a row given as the object itself is that object; the inputs are not changed.
    const first = { a: { b: 1 } };
    expect(await out('deepmerge', { data_to_merge: [{ key: 'ignored', value: first }, { a: { c: 2 } }] })).toEqual({ merged_object: { a: { b: 1, c: 2 } } });
    expect(first).toEqual({ a: { b: 1 } });
  });

  it('deepmerge names what it cannot merge', async () => {
    expect(await run('deepmerge', { data_to_merge: [{ key: '', value: { a: 1 } }, { key: '', value: 'text' }] })).toMatchObject({ state: 'error', error: expect.stringContaining('data_to_merge[1] must be an object to merge') });
    expect(await run('deepmerge', { data_to_merge: [] })).toMatchObject({ state: 'error', error: expect.stringContaining('data_to_merge must be a non-empty array') });
  });

  it('keys, objectHasOwnProperty, parse', async () => {
    expect(await out('keys', { obj: { a: 1, b: 2 } })).toEqual({ keys: ['a', 'b'] });
    expect(await out('objectHasOwnProperty', { obj: { a: 1 }, prop: 'a' })).toEqual({ result: true });
    expect(await run('parse', { text: '{' })).toMatchObject({ state: 'error', error: expect.stringContaining('parse: text is not valid JSON') });
    // The name this console used before it took the service's: a workflow saved with it still runs.
    expect(await out('parse', { str: '[1]' })).toEqual({ textObject: [1] });
  });
});

describe('number and string tasks', () => {
  it('compute as JavaScript does, and name what is not a number', async () => {
    // parseInt's page (docs/parseint-number-7): 0xF in base 16 is 15, "1.655" gives 1, and a text that starts with no digit is NaN (null in JSON, as charCodeAt's).
    expect(await out('parseInt', { str: '0xF', radix: 16 })).toEqual({ result: 15 });
    expect(await out('parseInt', { str: '1.655' })).toEqual({ result: 1 });
    expect(await out('parseInt', { str: 'abc' })).toEqual({ result: null });
    expect(await out('parseInt', { string: 'ff', radix: 16 })).toEqual({ result: 255 });
    expect(await out('toFixed', { num: 3.14159, digits: 2 })).toEqual({ fixedNumber: '3.14' });
    expect(await out('stringConcat', { str: 'a', stringN: ['b', 'c'] })).toEqual({ combinedStrings: 'abc' });
    expect(await out('padStart', { str: '7', targetLength: 3, padString: '0' })).toEqual({ paddedString: '007' });
  });
});

describe('time tasks', () => {
  it('getTime answers { time, formatString } at the timezone offset, moved by offsetDuration', async () => {
    const before = Date.now();
    const { time } = (await out('getTime', { timezone: '-11:00', offsetDuration: '', format: '' })) as { time: { time: string; formatString: string } };
    expect(time.formatString).toBe('YYYY-MM-DDTHH:mm:ss.SSSSSSZZ');
    expect(time.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}-1100$/);
    expect(Math.abs(parseTime(time.time, time.formatString, 't') - before)).toBeLessThan(5000);
    const later = (await out('getTime', { timezone: '+00:00', offsetDuration: { days: 7 }, format: 'x' })) as { time: { time: string } };
    expect(Number(later.time.time) - before).toBeGreaterThanOrEqual(7 * 864e5 - 5000);
    expect(await run('getTime', { timezone: 'Mars' })).toMatchObject({ state: 'error', error: expect.stringContaining('timezone must be an offset') });
    // getTime's page spells it Timezone: read so too, and named so when wrong.
    const spelt = (await out('getTime', { Timezone: '+05:00', offsetDuration: '', format: '' })) as { time: { time: string } };
    expect(spelt.time.time).toMatch(/\+0500$/);
    expect(await run('getTime', { Timezone: 'Mars' })).toMatchObject({ state: 'error', error: expect.stringContaining('Timezone must be an offset') });
  });

  it('calculateTimeDiff is firstTime minus secondTime in every unit (the documented example: -30 days)', async () => {
    const f = 'YYYY-MM-DDTHH:mm:ss.SSSSSSZZ';
    const { timeDiff } = (await out('calculateTimeDiff', {
      firstTime: { formatString: f, time: '2023-03-29T01:21:14.052000-1100' },
      secondTime: { formatString: f, time: '2023-04-28T01:21:14.052000-1100' },
    })) as { timeDiff: Record<string, number> };
    expect(timeDiff).toMatchObject({ milliseconds: -2592000000, seconds: -2592000, minutes: -43200, hours: -720, days: -30 });
    expect(timeDiff.months).toBeCloseTo(-0.9856465225158627, 12);
    expect(timeDiff.years).toBeCloseTo(-0.08213721020965523, 12);
  });

  it('addDuration, convertTimeToEpoch and convertTimezone keep the input format', async () => {
    const inputTime = { time: '2023-01-01T01:21:14.052000-1100', formatString: 'YYYY-MM-DDTHH:mm:ss.SSSSSSZZ' };
    expect(await out('addDuration', { inputTime, offsetDuration: { months: 5, days: 1 } })).toEqual({ newtime: { time: '2023-06-02T01:21:14.052000-1100', formatString: inputTime.formatString } });
    expect(await out('addDuration', { inputTime, offsetDuration: 3600000 })).toEqual({ newtime: { time: '2023-01-01T02:21:14.052000-1100', formatString: inputTime.formatString } });
    expect(await out('convertTimeToEpoch', { inputTime: { time: '1970-01-02', formatString: 'YYYY-MM-DD' }, EpochFormat: 'Seconds' })).toEqual({ epochTime: 86400 });
    expect(await out('convertTimezone', { inputTime: { time: '03:00', formatString: 'HH:mm' }, NewTimezone: '+01:00' })).toEqual({ convertedTime: { time: '04:00', formatString: 'HH:mm' } });
    expect(await out('convertTimezone', { inputTime: { time: '03:00', formatString: 'HH:mm' }, NewTimezone: '-02:00' })).toEqual({ convertedTime: { time: '01:00', formatString: 'HH:mm' } });
  });

  it('reads and writes the moment.js tokens it knows', () => {
    const ms = Date.UTC(2023, 3, 28, 12, 21, 14, 52);
    expect(formatTime(ms, 'YYYY-MM-DDTHH:mm:ss.SSSSSSZZ', -660)).toBe('2023-04-28T01:21:14.052000-1100');
    expect(formatTime(ms, 'DD/MM/YY [at] hh:mm A', 0)).toBe('28/04/23 at 12:21 PM');
    expect(parseTime('2023-04-28T01:21:14.052000-1100', 'YYYY-MM-DDTHH:mm:ss.SSSSSSZZ', 't')).toBe(ms);
    expect(() => parseTime('yesterday', 'YYYY-MM-DD', 'firstTime')).toThrow('firstTime: time "yesterday" does not match formatString "YYYY-MM-DD"');
  });
});

describe('every other task, from what its reference says it does', () => {
  it.each([
    ['arraySlice', { arr: [1, 2, 3, 4], begin: 1, end: -1 }, { slicedArray: [2, 3] }],
    ['splice', { arr: ['a', 'b', 'c'], start: 1, deleteCount: 1, items: ['x', 'y'] }, { splicedArray: ['a', 'x', 'y', 'c'], removedElements: ['b'] }],
    // The pages' examples: concatArray (docs/concat-array-task-iap-2023-2), isArray (docs/isarray-7).
    ['concatArray', { arr: ['a', 'b', 'c'], arrayN: ['d', 'e', 'f'] }, { combinedArray: ['a', 'b', 'c', 'd', 'e', 'f'] }],
    ['concatArray', { arr: [1], valueN: [2, [3]] }, { combinedArray: [1, 2, [3]] }],
    ['arrayToString', { arr: ['1', 2, 'x'] }, { arrayString: '1,2,x' }],
    ['arrayToString', { arr: [] }, { arrayString: null }],
    ['isArray', { arr: ['1', '2', '3'] }, { isAnArray: true }],
    ['isArray', { arr: '"1","2","3"' }, { isAnArray: false }],
    ['isArray', { obj: { length: 1 } }, { isAnArray: false }],
    ['fill', { arr: [1, 2, 3, 4], value: 0, start: 1, end: 3 }, { filledArray: [1, 0, 0, 4] }],
    ['copyWithin', { arr: ['a', 'b', 'c', 'd', 'e'], target: 0, start: 3, end: 4 }, { copiedArray: ['d', 'b', 'c', 'd', 'e'] }],
    ['values', { obj: { a: 1, b: [2] } }, { values: [1, [2]] }],
    ['assign', { target: { a: 1, b: 1 }, sourceN: [{ b: 2 }, { c: 3 }] }, { targetObject: { a: 1, b: 2, c: 3 } }],
    ['extractField', { obj: { device: { interfaces: [{ name: 'ge-0/0/0' }] } }, path: 'device.interfaces[0].name' }, { value: 'ge-0/0/0' }],
    // The pages' examples: map (docs/map-task), FlattenJSONFormInput (docs/flattenjsonforminput-task).
    ['map', { arr: ['a', 'b', 'c'], map: [1, 2, 3] }, { result: { a: 1, b: 2, c: 3 } }],
    ['FlattenJSONFormInput', { input: { test: ['a'], two: ['b', 'c'], none: [], plain: 'd' } }, { response: { test: 'a', two: ['b', 'c'], none: [], plain: 'd' } }],
    ['objectToString', { value: { a: [1] } }, { stringified: '{"a":[1]}' }],
    ['objectToString', { value: { name: 'n', city: 'c' }, replacer: ['city'], space: 2 }, { stringified: '{\n  "city": "c"\n}' }],
    ['objectToString', { obj: { a: 1 } }, { stringified: '{"a":1}' }],
    ['parse', { text: '{"firstName": "John", "age": 22}' }, { textObject: { firstName: 'John', age: 22 } }],
    ['parseFloat', { string: '3.14abc' }, { float: 3.14 }],
    ['toPrecision', { num: 123.456, precision: 4 }, { result: '123.5' }],
    ['numberToString', { num: 255, radix: 2 }, { numToString: '11111111' }],
    ['isNaN', { value: 'abc' }, { result: true }],
    ['isInteger', { value: 5.5 }, { result: false }],
    ['repeat', { str: 'ab', count: 3 }, { repeatedString: 'ababab' }],
    ['padEnd', { str: 'ab', targetLength: 5, padString: '.' }, { paddedString: 'ab...' }],
    ['newVariable', { name: 'allowedIPList', value: ['10.10.10.10'] }, { value: ['10.10.10.10'] }],
    ['query', { pass_on_null: false, query: 'response.id', obj: { response: { id: 'task-7' } } }, { return_data: 'task-7' }],
  ])('%s %j', async (method, incoming, outgoing) => {
    expect(await run(method, incoming)).toMatchObject({ state: 'success', outgoing });
  });

  it('map keys the values by the text of each element, a name like __proto__ as an own key, no value as undefined', async () => {
    const { result } = (await out('map', { arr: ['__proto__', 2], map: [1] })) as { result: Record<string, unknown> };
    expect(Object.keys(result)).toEqual(['2', '__proto__']);
    expect(Object.getOwnPropertyDescriptor(result, '__proto__')?.value).toBe(1);
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(result['2']).toBeUndefined();
    expect(await run('map', { arr: ['a'], map: 'b' })).toMatchObject({ state: 'error', error: 'map: map must be an array, got "b"' });
  });

  it('pushToArray appends to the job variable; query without a match is a failure unless pass_on_null', async () => {
    expect(await run('pushToArray', { job_variable: 'failedDevices', item_to_push: 'r2' }, { failedDevices: ['r1'] })).toMatchObject({ jobVariables: { failedDevices: ['r1', 'r2'] } });
    expect(await run('pushToArray', { job_variable: 'failedDevices', item_to_push: 'r1' }, {})).toMatchObject({ jobVariables: { failedDevices: ['r1'] } });
    expect((await run('query', { pass_on_null: false, query: 'a.b', obj: {} })).state).toBe('failure');
    expect((await run('query', { pass_on_null: true, query: 'a.b', obj: {} })).state).toBe('success');
  });
});

describe('query syntax (json-query, as the service)', () => {
  const obj = { loop: [{ returnStatus: 'FAILED', n: 1 }, { returnStatus: 'OK', n: 2 }, { returnStatus: 'FAILED', n: 3 }], 'k:x': 5, a: { b: null } };

  it('filters, plucks and calls :get', async () => {
    expect(await out('query', { pass_on_null: false, query: 'loop[*returnStatus=FAILED].n', obj })).toEqual({ return_data: [1, 3] });
    expect(await out('query', { pass_on_null: false, query: 'loop[returnStatus=OK].n', obj })).toEqual({ return_data: 2 });
    expect(await out('query', { pass_on_null: false, query: ':get(k:x)', obj })).toEqual({ return_data: 5 });
    expect(await run('query', { pass_on_null: false, query: 'a.b', obj })).toMatchObject({ state: 'failure', outgoing: { return_data: null } });
  });

  it('evaluation queries its operands the same way (a real export: loop[*returnStatus=FAILED])', async () => {
    const outcome = await run('evaluation', {
      all_true_flag: true,
      evaluation_groups: [{ all_true_flag: true, evaluations: [{ operand_1: obj, query: 'loop[*returnStatus=FAILED]', operator: '==', operand_2: [], rightQuery: '' }] }],
    });
    expect(outcome).toMatchObject({ state: 'failure', outgoing: { return_value: false } });
  });

  it('orders as JavaScript does: "none of the children failed" is loop[*returnStatus=FAILED] < 1', async () => {
    const check = (job_details: unknown) =>
      run('evaluation', {
        all_true_flag: false,
        evaluation_groups: [{ all_true_flag: false, evaluations: [{ operand_1: job_details, operand_2: 1, operator: '<', query: 'loop[*returnStatus=FAILED]', rightQuery: '' }] }],
      });
    expect((await check({ loop: [{ returnStatus: 'SUCCESS' }, { returnStatus: 'SUCCESS' }] })).state).toBe('success');
    expect((await check({ loop: [{ returnStatus: 'SUCCESS' }, { returnStatus: 'FAILED' }] })).state).toBe('failure');
    expect((await run('evaluation', { evaluation_groups: [{ evaluations: [{ operand_1: '10', operator: '>', operand_2: 9 }] }] })).state).toBe('success');
  });
});
