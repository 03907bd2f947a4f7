import { describe, expect, it } from 'vitest';
import { checkWorkflow, findReferences, validateWorkflow } from '../../../core/engine/workflow/validate';
import { MAX_DEPTH } from '../../../core/engine/workflow/references';

const task = (name: string, incoming: Record<string, unknown> = {}, app = 'WorkFlowEngine') => ({
  name,
  app,
  type: 'automatic' as const,
  variables: { incoming, outgoing: {} },
});

type Edge = string | { type: string; state: string };
function workflow(tasks: Record<string, unknown>, transitions: Record<string, Record<string, Edge>>) {
  return {
    name: 'wf',
    tasks,
    transitions: Object.fromEntries(
      Object.entries(transitions).map(([src, dsts]) => [
        src,
        Object.fromEntries(Object.entries(dsts).map(([dst, t]) => [dst, typeof t === 'string' ? { type: 'standard', state: t } : t])),
      ]),
    ),
  };
}

const linear = (tasks: Record<string, unknown>, order: string[]) => {
  const path = ['workflow_start', ...order, 'workflow_end'];
  const transitions: Record<string, Record<string, string>> = {};
  for (let i = 0; i < path.length - 1; i++) transitions[path[i]!] = { [path[i + 1]!]: 'success' };
  return workflow(tasks, transitions);
};

describe('validateWorkflow', () => {
  it('accepts built-in, childJob, adapter and manual tasks, whatever the profile has (parts are not its business)', () => {
    const wf = linear(
      {
        a: task('toUpperCase', { str: '$var.job.name' }),
        b: task('codePointAt', { str: '$var.a.uppercaseString', pos: 0 }),
        c: task('childJob', { workflow: 'other', variables: { v: '$var.b.codePointValue' } }),
        d: task('getConfig', { device: '$var.job.device' }, 'NoSuchAdapter'),
        e: { name: 'ViewData', app: 'WorkFlowEngine', type: 'manual' },
      },
      ['a', 'b', 'c', 'd', 'e'],
    );
    expect(validateWorkflow(wf)).toEqual([]);
  });

  it('accepts revert transitions forming a polling loop, the loop state, and a task mapping to {}', () => {
    const wf = workflow(
      { poll: task('stub'), check: task('evaluation', { a: { task: 'poll', variable: 'response' } }), give_up: task('stub') },
      {
        workflow_start: { poll: 'success' },
        poll: { check: 'success' },
        check: { workflow_end: 'success', poll: { type: 'revert', state: 'failure' }, give_up: { type: 'standard', state: 'loop' } },
        give_up: {},
        workflow_end: {},
      },
    );
    expect(validateWorkflow(wf)).toEqual([]);
  });

  it('refuses what the service refuses, all at once, and only warns of what the console doubts', () => {
    const wf = workflow(
      {
        a: task('trim', { str: '$var.nobody.x' }),
        b: task('trim', { str: { task: 'c', variable: 'noWhitespace' } }),
        c: task('trim'),
        lone: task('trim'),
      },
      {
        workflow_start: { a: 'success', c: 'success' },
        a: { b: 'success', ghost: 'error' },
        b: { workflow_end: { type: 'sideways', state: 'done' } },
        phantom: { a: 'success' },
      },
    );
    const { problems, warnings } = checkWorkflow(wf);
    expect(problems).toEqual([
      expect.objectContaining({ path: 'transitions.b.workflow_end', message: 'transition b → workflow_end: type must be "standard", "revert"' }),
      expect.objectContaining({ path: 'transitions.b.workflow_end', message: 'transition b → workflow_end: state must be "success", "error", "failure", "loop"' }),
    ]);
    expect(warnings).toEqual([
      { path: 'transitions.a.ghost', transition: { src: 'a', dst: 'ghost' }, message: 'transition a → ghost: there is no task "ghost" to go to' },
      { path: 'transitions.phantom.a', transition: { src: 'phantom', dst: 'a' }, message: 'transition phantom → a: there is no task "phantom" to leave from' },
      { path: 'tasks.lone', task: 'lone', message: 'task "lone": no path of transitions leads to it from workflow_start' },
      { path: 'tasks.a.variables.incoming.str', task: 'a', message: 'task "a": str refers to $var.nobody.x, but there is no task "nobody"' },
      {
        path: 'tasks.b.variables.incoming.str',
        task: 'b',
        message: 'task "b": str refers to { task: "c", variable: "noWhitespace" }, but task "c" cannot have run before "b" (no transitions lead from it to "b")',
      },
    ]);
    expect(validateWorkflow(wf)).toEqual(problems);
  });

  it('warns, without refusing, when no path leads from workflow_start to workflow_end', () => {
    const wf = workflow({ a: task('trim'), b: task('trim') }, { workflow_start: { a: 'success' }, b: { workflow_end: 'success' } });
    expect(validateWorkflow(wf)).toEqual([]);
    expect(checkWorkflow(wf).warnings).toContainEqual({ path: 'transitions', message: 'no path of transitions leads from workflow_start to workflow_end' });
    const none = workflow({}, {});
    expect(checkWorkflow(none).warnings[0]!.message).toContain('workflow_start has no transition');
  });

  it('lets a task after a forEach read a task of its loop body (it ran before the loop task went on)', () => {
    // forEach -loop-> fetch -> shout (the body, no transition back); forEach -success-> report.
    const wf = workflow(
      {
        each: task('forEach', { data_array: '$var.job.devices' }),
        fetch: task('trim', { str: '$var.each.current_item' }),
        shout: task('toUpperCase', { str: { task: 'fetch', variable: 'noWhitespace' } }),
        report: task('toLowerCase', { str: '$var.shout.uppercaseString' }),
        last: task('trim', { str: { task: 'fetch', variable: 'noWhitespace' } }),
      },
      {
        workflow_start: { each: 'success' },
        each: { fetch: 'loop', report: 'success' },
        fetch: { shout: 'success' },
        report: { last: 'success' },
        last: { workflow_end: 'success' },
      },
    );
    expect(checkWorkflow(wf)).toEqual({ problems: [], warnings: [] });
  });

  it('still warns of a loop-body task read before the loop ran', () => {
    const wf = workflow(
      {
        before: task('trim', { str: '$var.fetch.noWhitespace' }),
        each: task('forEach', { data_array: '$var.job.devices' }),
        fetch: task('trim', { str: '$var.each.current_item' }),
      },
      {
        workflow_start: { before: 'success' },
        before: { each: 'success' },
        each: { fetch: 'loop', workflow_end: 'success' },
      },
    );
    const { problems, warnings } = checkWorkflow(wf);
    expect(problems).toEqual([]);
    expect(warnings.map((w) => w.message)).toEqual(['task "before": str refers to $var.fetch.noWhitespace, but task "fetch" cannot have run before "before" (no transitions lead from it to "before")']);
  });

  it('names tasks missing app or type, and a document that is no workflow', () => {
    const wf = linear({ a: { name: 'trim' }, b: { app: 'WorkFlowEngine', type: 'automatic' } }, ['a', 'b']);
    expect(validateWorkflow(wf).map((p) => p.path)).toEqual(['tasks.a.app', 'tasks.a.type', 'tasks.b.name']);
    expect(validateWorkflow({ name: '', tasks: [] }).map((p) => p.path)).toEqual(['name', 'tasks']);
    expect(validateWorkflow([])).toHaveLength(1);
  });

  it('refuses a value equal to the stored-undefined marker, naming the task', () => {
    const wf = linear({ a: task('trim', { str: '~4undefined' }) }, ['a']);
    expect(validateWorkflow(wf)).toEqual([
      expect.objectContaining({ path: 'tasks.a.variables.incoming.str', task: 'a', message: expect.stringContaining('~4undefined') }),
    ]);
  });

  it('answers problems, not a stack overflow, for 10,000 levels of nesting and a chain of 10,000 tasks', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 10_000; i++) deep = { next: [deep] };
    const nested = linear({ a: task('merge', { data_to_merge: deep }) }, ['a']);
    expect(validateWorkflow(nested)).toEqual([expect.objectContaining({ task: 'a', message: `task "a": its values are nested deeper than ${MAX_DEPTH} levels` })]);
    expect(validateWorkflow({ ...linear({}, []), inputSchema: deep })).toEqual([expect.objectContaining({ path: 'inputSchema' })]);

    const tasks: Record<string, unknown> = {};
    const order: string[] = [];
    for (let i = 0; i < 10_000; i++) {
      tasks[`t${i}`] = task('trim', i ? { str: `$var.t${i - 1}.noWhitespace` } : {});
      order.push(`t${i}`);
    }
    expect(validateWorkflow(linear(tasks, order))).toEqual([]);
  });

  it('finds references of both forms at any depth, skipping static literals', () => {
    expect(
      findReferences({
        a: '$var.job.x',
        b: { c: ['$var.t1.out', 'plain'] },
        d: [{ key: 'k', value: { task: 'job', value: 'neverSet', editable: true } }],
        e: { task: 'static', value: null },
        f: { task: 't2', variable: 'result' },
      }).map(({ source, variable, at, form }) => ({ source, variable, at, form })),
    ).toEqual([
      { source: 'job', variable: 'x', at: 'a', form: 'string' },
      { source: 't1', variable: 'out', at: 'b.c[0]', form: 'string' },
      { source: 'job', variable: 'neverSet', at: 'd[0].value', form: 'object' },
      { source: 'static', variable: undefined, at: 'e', form: 'object' },
      { source: 't2', variable: 'result', at: 'f', form: 'object' },
    ]);
  });
});
