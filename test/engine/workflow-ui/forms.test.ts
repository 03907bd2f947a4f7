import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../renderer/api/client';
import { groupProblems, problemsOf } from '../../../renderer/workflows/problems';
import { fieldsOf, variablesOf } from '../../../renderer/workflows/variables-form';

describe('the variables form from an inputSchema', () => {
  const schema = {
    type: 'object',
    required: ['host', 'port'],
    properties: {
      host: { type: 'string', title: 'Host name', description: 'FQDN' },
      port: { type: 'integer' },
      ratio: { type: ['number', 'null'] },
      dry: { type: 'boolean' },
      mode: { enum: ['fast', 'safe'] },
      tags: { type: 'array', items: { type: 'string' } },
    },
  };

  it('makes a field per property with a kind from its type', () => {
    expect(fieldsOf(schema)!.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['host', 'text', true],
      ['port', 'integer', true],
      ['ratio', 'number', false],
      ['dry', 'boolean', false],
      ['mode', 'choice', false],
      ['tags', 'json', false],
    ]);
    expect(fieldsOf(schema)![0]).toMatchObject({ label: 'Host name', description: 'FQDN' });
  });

  it('never asks for what the service gives every job itself (_id, initiator), even when required', () => {
    const realExport = {
      type: 'object',
      properties: { _id: { title: 'job_id', type: 'string', examples: ['test'] }, initiator: { type: 'string' }, device: { type: 'string' } },
      required: ['_id', 'device'],
    };
    expect(fieldsOf(realExport)!.map((f) => f.name)).toEqual(['device']);
    expect(fieldsOf({ type: 'object', properties: { _id: { type: 'string' } }, required: ['_id'] })).toBeNull();
  });

  it('falls back to the JSON editor without properties', () => {
    expect(fieldsOf(undefined)).toBeNull();
    expect(fieldsOf({ type: 'object' })).toBeNull();
  });

  it('turns filled fields into typed variables and leaves empty ones out (undefined)', () => {
    const fields = fieldsOf(schema)!;
    const { variables, errors } = variablesOf(fields, { host: 'r1', port: '830', dry: 'false', mode: '"safe"', tags: '["a"]', ratio: '' });
    expect(errors).toEqual({});
    expect(variables).toEqual({ host: 'r1', port: 830, dry: false, mode: 'safe', tags: ['a'] });
    expect('ratio' in variables).toBe(false);
  });

  it('names what is wrong per field', () => {
    const { errors } = variablesOf(fieldsOf(schema)!, { port: '8.5', tags: '[' });
    expect(errors.host).toBe('Host name is required');
    expect(errors.port).toBe('port must be a whole number');
    expect(errors.tags).toContain('tags is not JSON');
  });

  it("takes a union-typed input (the F5 pre-builts' adapterId: any type) as plain text or as the JSON its types allow", () => {
    const union = { type: 'object', required: ['adapterId'], properties: { adapterId: { type: ['array', 'boolean', 'null', 'number', 'object', 'string'] }, count: { type: ['number', 'array'] } } };
    const fields = fieldsOf(union)!;
    expect(fields.map((f) => [f.name, f.kind])).toEqual([
      ['adapterId', 'union'],
      ['count', 'union'],
    ]);
    expect(variablesOf(fields, { adapterId: 'bigiq-prod' }).variables).toEqual({ adapterId: 'bigiq-prod' });
    expect(variablesOf(fields, { adapterId: '{"id": "bigiq"}', count: '3' }).variables).toEqual({ adapterId: { id: 'bigiq' }, count: 3 });
    expect(variablesOf(fields, { adapterId: 'x', count: 'three' }).errors).toEqual({ count: 'count must be number, array (as JSON)' });
  });
});

describe('import problems', () => {
  it('groups the server problems by task, transition and workflow', () => {
    const error = new ApiError({
      statusCode: 400,
      error: 'Bad Request',
      message: 'x',
      problems: [
        { path: 'tasks.a.name', task: 'a', message: 'task "a": WorkFlowEngine has no method "x"' },
        { path: 'transitions.a.b', transition: { src: 'a', dst: 'b' }, message: 'transition a → b: there is no task "b" to go to' },
        { path: 'transitions', message: 'no path of transitions leads from workflow_start to workflow_end' },
      ],
    });
    const groups = groupProblems(problemsOf(error));
    expect([...groups.tasks]).toEqual([['a', ['task "a": WorkFlowEngine has no method "x"']]]);
    expect([...groups.transitions.keys()]).toEqual(['a → b']);
    expect(groups.other).toEqual(['no path of transitions leads from workflow_start to workflow_end']);
  });

  it('reads shape errors (issues) by their path', () => {
    const error = new ApiError({
      statusCode: 400,
      error: 'Bad Request',
      message: 'x',
      issues: [
        { path: 'body.tasks.t1.type', message: 'task "t1" needs a type' },
        { path: 'body.transitions.t1.t2.state', message: 'Invalid option' },
        { path: 'body.name', message: 'a workflow needs a name' },
      ],
    });
    const groups = groupProblems(problemsOf(error));
    expect(groups.tasks.get('t1')).toEqual(['tasks.t1.type: task "t1" needs a type']);
    expect(groups.transitions.get('t1 → t2')).toEqual(['transitions.t1.t2.state: Invalid option']);
    expect(groups.other).toEqual(['name: a workflow needs a name']);
  });

  it('keeps a plain error message', () => {
    expect(problemsOf(new ApiError({ statusCode: 409, error: 'Conflict', message: 'exists already' }))).toEqual([{ path: '', message: 'exists already' }]);
  });
});
