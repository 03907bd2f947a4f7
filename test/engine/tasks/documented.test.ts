// Every task the service's documentation describes is in the engine, under the service's
// name and with the variables its page lists (core/engine/tasks/documented.ts says where
// each comes from).
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
