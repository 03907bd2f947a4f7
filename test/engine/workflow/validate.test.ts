import { describe, expect, it } from 'vitest';
import { Workflow } from '../../../core/contract/workflows';
import { knownMethods } from '../../../core/engine/workflow/known';
import { findReferences, validateWorkflow } from '../../../core/engine/workflow/validate';

const known = knownMethods({ methods: (id) => (id === 'netconf' ? ['getConfig'] : undefined) });

const task = (name: string, incoming: Record<string, unknown> = {}, app = 'WorkFlowEngine') => ({
  name,
  app,
  type: 'automatic' as const,
  variables: { incoming, outgoing: {} },
});

function workflow(tasks: Record<string, unknown>, transitions: Record<string, Record<string, string>>) {
  return Workflow.parse({
    name: 'wf',
    tasks,
    transitions: Object.fromEntries(
      Object.entries(transitions).map(([src, dsts]) => [
        src,
        Object.fromEntries(Object.entries(dsts).map(([dst, state]) => [dst, { type: 'standard', state }])),
      ]),
    ),
  });
}

const linear = (tasks: Record<string, unknown>, order: string[]) => {
  const path = ['workflow_start', ...order, 'workflow_end'];
  const transitions: Record<string, Record<string, string>> = {};
  for (let i = 0; i < path.length - 1; i++) transitions[path[i]!] = { [path[i + 1]!]: 'success' };
  return workflow(tasks, transitions);
};

describe('validateWorkflow', () => {
  it('accepts a good workflow with built-in, childJob, adapter and manual tasks', () => {
    const wf = linear(
      {
        a: task('toUpperCase', { str: '$var.job.name' }),
        b: task('codePointAt', { str: '$var.a.uppercaseString', pos: 0 }),
        c: task('childJob', { workflow: 'other', variables: { v: '$var.b.codePointValue' } }),
        d: task('getConfig', { device: '$var.job.device' }, 'netconf'),
        e: { name: 'ViewData', app: 'WorkFlowEngine', type: 'manual' },
      },
      ['a', 'b', 'c', 'd', 'e'],
    );
    expect(validateWorkflow(wf, known)).toEqual([]);
  });

  it('names the task with an unknown app, and the task with an unknown method', () => {
    const wf = linear({ a: task('toUpperCase', {}, 'NoSuchApp'), b: task('shout') }, ['a', 'b']);
    expect(validateWorkflow(wf, known)).toEqual([
      { path: 'tasks.a.app', task: 'a', message: 'task "a": no application or adapter "NoSuchApp"' },
      { path: 'tasks.b.name', task: 'b', message: 'task "b": WorkFlowEngine has no method "shout"' },
    ]);
  });

  it('names a transition to or from a missing task', () => {
    const wf = workflow({ a: task('trim') }, { workflow_start: { a: 'success' }, a: { workflow_end: 'success', ghost: 'error' }, phantom: { a: 'success' } });
    const problems = validateWorkflow(wf, known);
    expect(problems).toContainEqual({
      path: 'transitions.a.ghost',
      transition: { src: 'a', dst: 'ghost' },
      message: 'transition a → ghost: there is no task "ghost" to go to',
    });
    expect(problems).toContainEqual(expect.objectContaining({ transition: { src: 'phantom', dst: 'a' }, message: expect.stringContaining('no task "phantom"') }));
    expect(problems).toHaveLength(2);
  });

  it('reports when no path leads from workflow_start to workflow_end', () => {
    const wf = workflow({ a: task('trim'), b: task('trim') }, { workflow_start: { a: 'success' }, b: { workflow_end: 'success' } });
    expect(validateWorkflow(wf, known)).toEqual([{ path: 'transitions', message: 'no path of transitions leads from workflow_start to workflow_end' }]);
    const none = workflow({ a: task('trim') }, {});
    expect(validateWorkflow(none, known)[0]!.message).toContain('workflow_start has no transition');
  });

  it('counts error and failure transitions as paths', () => {
    const wf = workflow({ a: task('trim') }, { workflow_start: { a: 'success' }, a: { workflow_end: 'error' } });
    expect(validateWorkflow(wf, known)).toEqual([]);
  });

  it('names a $var reference to a task that cannot have run before', () => {
    // a and b are parallel branches: b cannot rely on a having run
    const wf = workflow(
      { a: task('trim', { str: 'x' }), b: task('trim', { str: '$var.a.noWhitespace' }) },
      { workflow_start: { a: 'success', b: 'success' }, a: { workflow_end: 'success' }, b: { workflow_end: 'success' } },
    );
    expect(validateWorkflow(wf, known)).toEqual([
      {
        path: 'tasks.b.variables.incoming.str',
        task: 'b',
        message: 'task "b": str refers to $var.a.noWhitespace, but task "a" cannot have run before "b" (no transitions lead from it to "b")',
      },
    ]);
  });

  it('names a reference to a missing task, to the task itself, and to an outgoing variable the method lacks', () => {
    const wf = linear(
      {
        a: task('trim', { str: '$var.nobody.x' }),
        b: task('trim', { str: '$var.b.noWhitespace' }),
        c: task('trim', { str: '$var.a.trimmed' }),
      },
      ['a', 'b', 'c'],
    );
    const messages = validateWorkflow(wf, known).map((p) => p.message);
    expect(messages).toEqual([
      'task "a": str refers to $var.nobody.x, but there is no task "nobody"',
      'task "b": str refers to $var.b.noWhitespace, but task "b" cannot have run before "b" (no transitions lead from it to "b")',
      'task "c": str refers to $var.a.trimmed, but WorkFlowEngine.trim has no outgoing "trimmed" (it has noWhitespace)',
    ]);
  });

  it('refuses a static incoming value equal to the undefined marker, naming the task', () => {
    const wf = linear({ a: task('trim', { str: '~4undefined' }) }, ['a']);
    expect(validateWorkflow(wf, known)).toEqual([
      expect.objectContaining({ path: 'tasks.a.variables.incoming.str', task: 'a', message: expect.stringContaining('~4undefined') }),
    ]);
  });

  it('finds references at any depth of the incoming variables', () => {
    expect(findReferences({ a: '$var.job.x', b: { c: ['$var.t1.out', 'plain'] } })).toEqual([
      { source: 'job', variable: 'x', at: 'a' },
      { source: 't1', variable: 'out', at: 'b.c[0]' },
    ]);
  });
});

describe('the Workflow schema', () => {
  it('requires app and type on tasks other than workflow_start and workflow_end', () => {
    const result = Workflow.safeParse({ name: 'w', tasks: { workflow_start: { name: 'workflow_start' }, a: { name: 'trim' } }, transitions: {} });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.path.join('.'))).toEqual(['tasks.a.app', 'tasks.a.type']);
  });

  it('refuses a transition state other than success, error, failure', () => {
    const result = Workflow.safeParse({ name: 'w', tasks: {}, transitions: { workflow_start: { workflow_end: { type: 'standard', state: 'done' } } } });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.path).toEqual(['transitions', 'workflow_start', 'workflow_end', 'state']);
  });

  it('keeps fields it does not know (positions, groups) and accepts a location', () => {
    const wf = Workflow.parse({ name: 'w', groups: [], tasks: { a: { name: 'trim', app: 'WorkFlowEngine', type: 'automatic', location: 'Application', x: 1, y: 2 } } });
    expect(wf).toMatchObject({ groups: [], tasks: { a: { x: 1, y: 2, location: 'Application' } }, transitions: {} });
  });
});
