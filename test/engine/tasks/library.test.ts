import { describe, expect, it } from 'vitest';
import { builtInTaskMethods, builtInTasks, MAX_DELAY_SECONDS, runBuiltInTask } from '../../../core/engine/tasks/library';
import { parsePath, queryPath } from '../../../core/engine/tasks/query-path';

const run = (method: string, incoming: Record<string, unknown>) => runBuiltInTask(method, incoming);

describe('the WorkFlowEngine task library', () => {
  it('has the string tasks, newVariable, merge, query, evaluation and delay; childJob is marked as the runner\'s', () => {
    for (const method of [
      'codePointAt', 'charAt', 'charCodeAt', 'concat', 'endsWith', 'includes', 'indexOf', 'lastIndexOf', 'stringLength', 'length',
      'replace', 'slice', 'split', 'startsWith', 'substring', 'toLowerCase', 'toUpperCase', 'trim',
      'newVariable', 'merge', 'query', 'evaluation', 'delay',
    ]) {
      expect(builtInTaskMethods).toContain(method);
    }
    expect(builtInTasks.get('childJob')).toMatchObject({ runner: true, outgoing: ['job_details'] });
  });

  it('names incoming and outgoing variables as the service does', () => {
    expect(builtInTasks.get('codePointAt')).toMatchObject({ incoming: ['str', 'pos'], outgoing: ['codePointValue'] });
    expect(builtInTasks.get('charAt')).toMatchObject({ incoming: ['str', 'index'], outgoing: ['character'] });
    expect(builtInTasks.get('concat')).toMatchObject({ incoming: ['str', 'stringN'], outgoing: ['combinedStrings'] });
    expect(builtInTasks.get('split')).toMatchObject({ outgoing: ['splitArray'] });
    expect(builtInTasks.get('trim')).toMatchObject({ outgoing: ['noWhitespace'] });
  });

  it('answers an unknown method with an error outcome naming it', async () => {
    expect(await run('nope', {})).toEqual({ state: 'error', outgoing: {}, error: 'WorkFlowEngine has no task "nope"' });
  });
});

describe('codePointAt (release 2022.1, section 4.1)', () => {
  it('returns the code point at pos', async () => {
    expect(await run('codePointAt', { str: 'Hello World', pos: 1 })).toEqual({ state: 'success', outgoing: { codePointValue: 101 } });
    expect(await run('codePointAt', { str: '😀', pos: 0 })).toEqual({ state: 'success', outgoing: { codePointValue: 0x1f600 } });
  });

  it('is a task error, not an empty string, when pos is out of range, naming pos and the string length', async () => {
    const outcome = await run('codePointAt', { str: 'abc', pos: 3 });
    expect(outcome.state).toBe('error');
    expect(outcome.outgoing).toEqual({});
    expect(outcome.error).toContain('pos 3');
    expect(outcome.error).toContain('length 3');
    expect((await run('codePointAt', { str: 'abc', pos: -1 })).state).toBe('error');
    expect((await run('codePointAt', { str: '', pos: 0 })).error).toContain('empty');
  });

  it('accepts a numeric string pos and refuses a non-number', async () => {
    expect((await run('codePointAt', { str: 'abc', pos: '2' })).outgoing).toEqual({ codePointValue: 99 });
    expect(await run('codePointAt', { str: 'abc', pos: 'x' })).toMatchObject({ state: 'error', error: 'codePointAt: pos must be a number, got "x"' });
  });
});

describe('string tasks', () => {
  const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['charAt', { str: 'Hello', index: 1 }, { character: 'e' }],
    ['charAt', { str: 'Hello', index: 9 }, { character: '' }],
    ['charCodeAt', { str: 'Hello', index: 4 }, { code: 111 }],
    ['charCodeAt', { str: 'Hello', index: 9 }, { code: null }],
    ['concat', { str: 'Hello', stringN: [' ', 'World'] }, { combinedStrings: 'Hello World' }],
    ['concat', { str: 'a', stringN: 'b' }, { combinedStrings: 'ab' }],
    ['endsWith', { str: 'file.txt', searchString: '.txt' }, { result: true }],
    ['endsWith', { str: 'file.txt', searchString: 'file', length: 4 }, { result: true }],
    ['includes', { str: '12 Dollars And 43 Cents', searchString: 'Cents', position: 19 }, { result: false }],
    ['indexOf', { str: 'abcabcdabcde', searchValue: 'abcd', fromIndex: 4 }, { index: 7 }],
    ['indexOf', { str: 'abc', searchValue: 'z' }, { index: -1 }],
    ['lastIndexOf', { str: 'abcabc', searchValue: 'b' }, { index: 4 }],
    ['stringLength', { str: '12 Dollars And 43 Cents' }, { length: 23 }],
    ['replace', { str: 'a-b-c', substr: '-', newSubstr: '+' }, { replacedString: 'a+b-c' }],
    ['replace', { str: 'price', substr: 'price', newSubstr: '$&5' }, { replacedString: '$&5' }],
    ['slice', { str: '800-555-1212', beginIndex: 0, endIndex: 3 }, { slicedString: '800' }],
    ['slice', { str: '800-555-1212', beginIndex: 7, endIndex: 4 }, { slicedString: '' }],
    ['split', { str: 'Hello World', separator: 'o', limit: 3 }, { splitArray: ['Hell', ' W', 'rld'] }],
    ['split', { str: 'a,b' }, { splitArray: ['a,b'] }],
    ['startsWith', { str: 'Hello', searchString: 'He' }, { result: true }],
    ['substring', { str: '800-555-1212', indexStart: 7, indexEnd: 4 }, { response: '555' }],
    ['toLowerCase', { str: 'Itential, LLC' }, { lowercaseString: 'itential, llc' }],
    ['toUpperCase', { str: 'itential,llc' }, { uppercaseString: 'ITENTIAL,LLC' }],
    ['trim', { str: '  Hello World  ' }, { noWhitespace: 'Hello World' }],
  ];
  it.each(cases)('%s %j', async (method, incoming, outgoing) => {
    expect(await run(method, incoming)).toEqual({ state: 'success', outgoing });
  });

  it('ends in error naming the argument when str is not a string', async () => {
    expect(await run('toUpperCase', { str: 5 })).toMatchObject({ state: 'error', error: 'toUpperCase: str must be a string, got number 5' });
    expect(await run('concat', { str: 'a', stringN: ['b', 1] })).toMatchObject({ state: 'error', error: expect.stringContaining('stringN[1]') });
    expect(await run('split', { str: 'a', separator: ',', limit: -1 })).toMatchObject({ state: 'error', error: expect.stringContaining('limit') });
  });
});

describe('newVariable, merge, query, evaluation', () => {
  it('newVariable outputs the value and sets the job variable by name', async () => {
    expect(await run('newVariable', { name: 'site', value: { id: 3 } })).toEqual({
      state: 'success',
      outgoing: { value: { id: 3 } },
      jobVariables: { site: { id: 3 } },
    });
    expect(await run('newVariable', { name: '9x', value: 1 })).toMatchObject({ state: 'error', error: expect.stringContaining('name "9x"') });
  });

  it('merge builds an object from unique keys and an array without keys', async () => {
    expect((await run('merge', { data_to_merge: [{ key: 'a', value: 1 }, { key: 'b', value: [2] }] })).outgoing).toEqual({ merged_object: { a: 1, b: [2] } });
    expect((await run('merge', { data_to_merge: [{ value: 1 }, { value: 'x' }] })).outgoing).toEqual({ merged_object: [1, 'x'] });
    expect(await run('merge', { data_to_merge: [{ key: 'a', value: 1 }, { value: 2 }] })).toMatchObject({ state: 'error', error: expect.stringContaining('data_to_merge[1] has no key') });
    expect(await run('merge', { data_to_merge: [{ key: 'a', value: 1 }, { key: 'a', value: 2 }] })).toMatchObject({ state: 'error', error: expect.stringContaining('used twice') });
    // The name the service uses, not `data`.
    expect(await run('merge', { data: [{ key: 'a', value: 1 }] })).toMatchObject({ state: 'error', error: expect.stringContaining('data_to_merge must be an array') });
  });

  it('query follows a path into an object and fails when nothing is there unless pass_on_null', async () => {
    const obj = { device: { interfaces: [{ name: 'ge-0/0/0' }], 'host name': 'r1' } };
    expect(await run('query', { query: 'device.interfaces[0].name', obj })).toEqual({ state: 'success', outgoing: { return_data: 'ge-0/0/0' } });
    expect((await run('query', { query: 'device["host name"]', obj })).outgoing).toEqual({ return_data: 'r1' });
    expect((await run('query', { query: 'device.missing', obj })).state).toBe('failure');
    expect((await run('query', { query: 'device.missing', obj, pass_on_null: true })).state).toBe('success');
    // json-query (the service's syntax) reads `..` as the parent: nothing there, so a failure.
    expect((await run('query', { query: 'a..b', obj })).state).toBe('failure');
  });

  it('parses paths with dots, indexes and quoted keys', () => {
    expect(parsePath('a.b[0].c')).toEqual(['a', 'b', 0, 'c']);
    expect(parsePath('a.1')).toEqual(['a', 1]);
    expect(parsePath('x["y.z"]')).toEqual(['x', 'y.z']);
    expect(queryPath({ a: [1, 2] }, '')).toEqual({ a: [1, 2] });
  });

  const group = (evaluations: unknown[], all_true_flag = true) => ({ all_true_flag, evaluations });
  it('evaluation ends in success when true and failure when false', async () => {
    const yes = await run('evaluation', { all_true_flag: true, evaluation_groups: [group([{ operand_1: 5, operator: '>', operand_2: 3 }])] });
    expect(yes).toEqual({ state: 'success', outgoing: { return_value: true } });
    const no = await run('evaluation', { evaluation_groups: [group([{ operand_1: 'a', operator: '==', operand_2: 'b' }])] });
    expect(no).toMatchObject({ state: 'failure', outgoing: { return_value: false } });
  });

  it('evaluation combines groups with all_true_flag and supports contains, deep equality and a query', async () => {
    const groups = [
      group([{ operand_1: { tags: ['a', 'b'] }, query: 'tags', operator: 'contains', operand_2: 'b' }]),
      group([{ operand_1: { x: [1] }, operator: '===', operand_2: { x: [1] } }, { operand_1: 1, operator: '==', operand_2: 2 }], false),
    ];
    expect((await run('evaluation', { all_true_flag: true, evaluation_groups: groups })).state).toBe('success');
    const oneFalse = [group([{ operand_1: 1, operator: '!=', operand_2: 1 }]), group([{ operand_1: 1, operator: '<=', operand_2: 1 }])];
    expect((await run('evaluation', { all_true_flag: true, evaluation_groups: oneFalse })).state).toBe('failure');
    expect((await run('evaluation', { all_true_flag: false, evaluation_groups: oneFalse })).state).toBe('success');
  });

  it('evaluation names a bad operator or operand', async () => {
    // An operator the service does not know is false there (its failure transition); the error names it.
    expect(await run('evaluation', { evaluation_groups: [group([{ operand_1: 1, operator: '=~', operand_2: 1 }])] })).toMatchObject({
      state: 'failure',
      outgoing: {},
      error: expect.stringContaining('evaluation_groups[0].evaluations[0].operator "=~"'),
    });
    // Ordering compares as JavaScript does (the service's exports rely on it): 1 < "a" is false, not an error.
    expect(await run('evaluation', { evaluation_groups: [group([{ operand_1: 1, operator: '<', operand_2: 'a' }])] })).toMatchObject({ state: 'failure' });
    expect((await run('evaluation', { evaluation_groups: [] })).state).toBe('error');
  });
});

describe('delay', () => {
  it('waits and succeeds', async () => {
    expect(await run('delay', { time: 0.01 })).toEqual({ state: 'success', outgoing: { time_in_milliseconds: 10 } });
  });

  it('is bounded', async () => {
    expect(await run('delay', { time: MAX_DELAY_SECONDS + 1 })).toMatchObject({ state: 'error', error: expect.stringContaining(`${MAX_DELAY_SECONDS}`) });
    expect((await run('delay', { time: -1 })).state).toBe('error');
    expect(await run('delay', {})).toMatchObject({ state: 'error', error: 'delay: time must be a number, got undefined' });
  });

  it('ends early, without an outcome, when its signal aborts', async () => {
    const controller = new AbortController();
    const pending = runBuiltInTask('delay', { time: 3600 }, { signal: controller.signal });
    controller.abort(new Error('worker stopping'));
    await expect(pending).rejects.toThrow('worker stopping');
  });
});
