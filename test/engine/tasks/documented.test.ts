// Every task the service's documentation describes is in the engine, under the service's
// name and with the variables its page lists (core/engine/tasks/documented.ts says where
// each comes from).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DOCUMENTED_TASKS } from '../../../core/engine/tasks/documented';
import { applicationManualTasks, builtInTasks, runBuiltInTask } from '../../../core/engine/tasks/library';
import { defaultApplications } from '../../../core/engine/workflow/catalog';

function engineTask(app: string, method: string) {
  if (app === 'WorkFlowEngine') return builtInTasks.get(method);
  return applicationManualTasks.get(app)?.find((task) => task.method === method);
}

describe('the tasks the service documents', () => {
  it('lists the ones issue 26 found missing', () => {
    const methods = DOCUMENTED_TASKS.map((task) => task.method);
    for (const method of ['modify', 'stringLength', 'RenderJsonSchema']) expect(methods).toContain(method);
  });

  for (const documented of DOCUMENTED_TASKS) {
    it(`${documented.app}.${documented.method} is built in, with the documented variables`, () => {
      const task = engineTask(documented.app, documented.method);
      expect(task, `${documented.app}.${documented.method} (documented at ${documented.source}) is missing from the engine`).toBeDefined();
      if (documented.incoming) expect(task!.incoming, 'incoming').toEqual(documented.incoming);
      if (documented.outgoing) expect(task!.outgoing, 'outgoing').toEqual(documented.outgoing);
      if (documented.display) expect(task!.displayName).toBe(documented.display);
      // A workflow naming it is not refused as needing it.
      expect(defaultApplications().get(documented.app), documented.app).toContain(documented.method);
    });
  }
});

describe('the tasks added from the reference', () => {
  const run = (method: string, incoming: Record<string, unknown>) => runBuiltInTask(method, incoming);

  it('modify: replaces the value, or the queried field of an object, in a copy', async () => {
    const device = { name: 'r1', os: { version: '16.9', vendor: 'cisco' } };
    expect(await run('modify', { object_to_update: device, query: 'os.version', new_value: '17.3' })).toEqual({
      state: 'success',
      outgoing: { updated_object: { name: 'r1', os: { version: '17.3', vendor: 'cisco' } } },
    });
    expect(device.os.version).toBe('16.9');
    expect(await run('modify', { object_to_update: 'old', query: '', new_value: 'new' })).toEqual({ state: 'success', outgoing: { updated_object: 'new' } });
    expect(await run('modify', { object_to_update: 5, new_value: 7 })).toEqual({ state: 'success', outgoing: { updated_object: 7 } });
    expect(await run('modify', { object_to_update: { a: 1 }, new_value: { b: 2 } })).toEqual({ state: 'success', outgoing: { updated_object: { b: 2 } } });
  });

  it('modify: an array, or a field inside one, is an error naming why', async () => {
    expect(await run('modify', { object_to_update: [1, 2], new_value: 3 })).toMatchObject({ state: 'error', error: expect.stringContaining('does not work on arrays') });
    expect(await run('modify', { object_to_update: { list: [{ a: 1 }] }, query: 'list[0].a', new_value: 2 })).toMatchObject({ state: 'error', error: expect.stringContaining('array element') });
    expect(await run('modify', { object_to_update: { a: 1 }, query: 'a' })).toMatchObject({ state: 'error', error: expect.stringContaining('new_value is required') });
  });

  it('stringLength counts characters; arrayLength counts the elements of an array', async () => {
    expect(await run('stringLength', { str: '12 Dollars And 43 Cents' })).toEqual({ state: 'success', outgoing: { length: 23 } });
    expect(await run('stringLength', { str: '' })).toEqual({ state: 'success', outgoing: { length: 0 } });
    expect(await run('arrayLength', { arr: ['a', 'b', 'c'] })).toEqual({ state: 'success', outgoing: { length: 3 } });
    expect(await run('arrayLength', { arr: 'abc' })).toMatchObject({ state: 'error' });
  });

  it('localeCompare gives -1, 0 or 1, with locales and options', async () => {
    expect(await run('localeCompare', { referenceStr: 'a', compareString: 'c' })).toEqual({ state: 'success', outgoing: { compareResult: -1 } });
    expect(await run('localeCompare', { referenceStr: 'item10', compareString: 'item9', locales: 'en', options: { numeric: true } })).toEqual({ state: 'success', outgoing: { compareResult: 1 } });
    expect(await run('localeCompare', { referenceStr: 'a', compareString: 'A', locales: 'en', options: { sensitivity: 'base' } })).toEqual({ state: 'success', outgoing: { compareResult: 0 } });
    expect(await run('localeCompare', { referenceStr: 'a', compareString: 'b', options: 'numeric' })).toMatchObject({ state: 'error', error: expect.stringContaining('options must be an object') });
  });
});

describe('the string tasks of the reference\'s second half (match, search, normalize, trimStart)', () => {
  const run = (method: string, incoming: Record<string, unknown>) => runBuiltInTask(method, incoming);

  it('match: every match with the g flag, the first and its groups without it, null when none (the page\'s example: Hello World, o, g)', async () => {
    expect(await run('match', { str: 'Hello World', regExp: 'o', flags: 'g' })).toEqual({ state: 'success', outgoing: { matches: ['o', 'o'] } });
    expect(await run('match', { str: 'Hello World', regExp: '/o/', flags: 'g' })).toEqual({ state: 'success', outgoing: { matches: ['o', 'o'] } });
    expect(await run('match', { str: 'ge-0/0/1', regExp: '(\\w+)-(\\d)' })).toEqual({ state: 'success', outgoing: { matches: ['ge-0', 'ge', '0'] } });
    expect(await run('match', { str: 'abc', regExp: '/B/i' })).toEqual({ state: 'success', outgoing: { matches: ['b'] } });
    expect(await run('match', { str: 'abc', regExp: 'z' })).toEqual({ state: 'success', outgoing: { matches: null } });
  });

  it('search: the index of the first match, -1 when none (the page\'s example: or in Hello World is 7)', async () => {
    expect(await run('search', { str: 'Hello World', regexp: 'or' })).toEqual({ state: 'success', outgoing: { index: 7 } });
    expect(await run('search', { str: 'Hello World', regexp: '/WORLD/i' })).toEqual({ state: 'success', outgoing: { index: 6 } });
    expect(await run('search', { str: 'Hello World', regexp: 'xyz' })).toEqual({ state: 'success', outgoing: { index: -1 } });
  });

  it('normalize: the form asked for, NFC when absent (the page\'s example: Chloé O\'Leary)', async () => {
    const decomposed = 'Chloe\u0301 O\'Leary';
    expect(await run('normalize', { str: decomposed, form: 'NFC' })).toEqual({ state: 'success', outgoing: { normalizedString: 'Chlo\u00e9 O\'Leary' } });
    expect(await run('normalize', { str: decomposed })).toEqual({ state: 'success', outgoing: { normalizedString: 'Chlo\u00e9 O\'Leary' } });
    expect(await run('normalize', { str: '\u00e9', form: 'NFD' })).toEqual({ state: 'success', outgoing: { normalizedString: 'e\u0301' } });
    expect(await run('normalize', { str: '\ufb01', form: 'NFKC' })).toEqual({ state: 'success', outgoing: { normalizedString: 'fi' } });
  });

  it('trimStart: the whitespace at the start only', async () => {
    expect(await run('trimStart', { str: '  Hello World  ' })).toEqual({ state: 'success', outgoing: { trimmedStart: 'Hello World  ' } });
  });

  it('a pattern or form JavaScript refuses, or a str that is no string, is an error naming the variable', async () => {
    expect(await run('match', { str: 'a', regExp: '(' })).toMatchObject({ state: 'error', error: expect.stringContaining('regExp is not a regular expression') });
    expect(await run('match', { str: 'a', regExp: 'a', flags: 'q' })).toMatchObject({ state: 'error', error: expect.stringContaining('regExp or flags') });
    expect(await run('search', { str: 'a', regexp: '[' })).toMatchObject({ state: 'error', error: expect.stringContaining('regexp is not a regular expression') });
    expect(await run('normalize', { str: 'a', form: 'NFX' })).toMatchObject({ state: 'error', error: expect.stringContaining('form must be one of NFC, NFD, NFKC or NFKD') });
    expect(await run('trimStart', { str: 42 })).toMatchObject({ state: 'error', error: expect.stringContaining('str') });
  });

  it('answer as JavaScript itself (the oracle) for any string and any literal pattern', async () => {
    const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.string({ minLength: 1, maxLength: 3 }), fc.constantFrom('', 'g', 'i', 'gi'), async (str, piece, flags) => {
        const pattern = escape(piece);
        const found = str.match(new RegExp(pattern, flags));
        expect(await run('match', { str, regExp: pattern, flags })).toEqual({ state: 'success', outgoing: { matches: found ? [...found] : null } });
        expect(await run('search', { str, regexp: pattern })).toEqual({ state: 'success', outgoing: { index: str.search(new RegExp(pattern)) } });
        expect(await run('trimStart', { str })).toEqual({ state: 'success', outgoing: { trimmedStart: str.trimStart() } });
      }),
    );
  });
});

