// The wiring: pointers into arrays and objects, nested functions with their own
// scope, a method's return feeding another, order by wiring whatever the order of
// the steps; the incoming check; the limits that end a bad document with an error.
import { describe, expect, it } from 'vitest';
import { TransformationError } from '../../core/transformations/errors';
import { checkDocument, runTransformation } from '../../core/transformations/interpreter';
import type { JstDocument, Step } from '../../core/transformations/types';
import { assign, fnOf } from './helpers';

function runError(doc: JstDocument, incoming: Record<string, unknown>, options = {}): TransformationError {
  try {
    runTransformation(doc, incoming, options);
  } catch (error) {
    expect(error).toBeInstanceOf(TransformationError);
    return error as TransformationError;
  }
  throw new Error('the run did not fail');
}

describe('wiring', () => {
  it('reads and writes through pointers into arrays and objects', () => {
    const doc: JstDocument = {
      name: 'pointers',
      incoming: [{ $id: 'device', type: 'object' }],
      outgoing: [{ $id: 'summary', type: 'object' }, { $id: 'names', type: 'array' }],
      steps: [
        assign(1, ['incoming', 'device', '/interfaces/1/name'], ['outgoing', 'summary', '/second/name']),
        assign(2, ['incoming', 'device', '/host~1name'], ['outgoing', 'summary', '/host']),
        assign(3, ['incoming', 'device', '/interfaces/0/name'], ['outgoing', 'names', '/0']),
        assign(4, ['incoming', 'device', '/interfaces/1/name'], ['outgoing', 'names', '/-']),
      ],
    };
    const { outgoing } = runTransformation(doc, { device: { 'host/name': 'r1', interfaces: [{ name: 'ge0' }, { name: 'ge1' }] } });
    expect(outgoing).toEqual({ summary: { second: { name: 'ge1' }, host: 'r1' }, names: ['ge0', 'ge1'] });
  });

  it('writes a whole value before the fields written into it, whatever the order of the steps', () => {
    const doc: JstDocument = {
      name: 'order',
      incoming: [{ $id: 'base' }, { $id: 'extra' }],
      outgoing: [{ $id: 'out' }],
      steps: [assign(1, ['incoming', 'extra', ''], ['outgoing', 'out', '/extra']), assign(2, ['incoming', 'base', ''], ['outgoing', 'out', ''])],
    };
    expect(runTransformation(doc, { base: { a: 1 }, extra: 2 }).outgoing.out).toEqual({ a: 1, extra: 2 });
  });

  it("feeds a method's return to the next method, steps listed out of order", () => {
    const doc: JstDocument = {
      name: 'chain',
      incoming: [{ $id: 'name', type: 'string' }],
      outgoing: [{ $id: 'slug', type: 'string' }],
      steps: [
        assign(10, ['method', 2, '/return'], ['outgoing', 'slug', '']),
        { id: 2, type: 'method', library: 'String', method: 'replaceAll', args: [null, ' ', '-'] },
        assign(11, ['method', 1, '/return'], ['method', 2, '/args/0/value']),
        { id: 1, type: 'method', library: 'String', method: 'toLowerCase', args: [null] },
        assign(12, ['incoming', 'name', ''], ['method', 1, '/args/0/value']),
      ],
    };
    expect(runTransformation(doc, { name: 'Core Router 1' }).outgoing).toEqual({ slug: 'core-router-1' });
  });

  it('fills a template step from its arguments, in the order the names first appear', () => {
    const doc: JstDocument = {
      name: 'template',
      incoming: [{ $id: 'host' }, { $id: 'port' }],
      outgoing: [{ $id: 'url' }],
      steps: [
        { id: 1, type: 'template', library: 'String', method: 'templateLiteral', template: 'https://${host}:${port}/${host}', args: [null, null] },
        assign(2, ['incoming', 'port', ''], ['template', 1, '/args/1/value']),
        assign(3, ['incoming', 'host', ''], ['template', 1, '/args/0/value']),
        assign(4, ['template', 1, '/return'], ['outgoing', 'url', '']),
      ],
    };
    expect(runTransformation(doc, { host: 'h', port: 8443 }).outgoing.url).toBe('https://h:8443/h');
  });

  it('fills a method step of String.templateLiteral that carries its template text', () => {
    const doc: JstDocument = {
      name: 'template method',
      incoming: [{ $id: 'ip' }],
      outgoing: [{ $id: 'cidr' }],
      steps: [
        { id: 1, type: 'method', library: 'String', method: 'templateLiteral', template: '${ip}/32', args: [null] },
        assign(2, ['incoming', 'ip', ''], ['method', 1, '/args/0/value']),
        assign(3, ['method', 1, '/return'], ['outgoing', 'cidr', '']),
      ],
    };
    expect(runTransformation(doc, { ip: '10.0.0.1' }).outgoing.cidr).toBe('10.0.0.1/32');
  });

  it('calls nested functions in their own scope: a map whose callback maps again', () => {
    const upper = fnOf('upper', 'String', 'toUpperCase', [], ['currentValue', 'index', 'array']);
    const inner: Step[] = [
      { id: 1, type: 'method', library: 'Array', method: 'map', args: [null, 'upper'] },
      // The function's own `currentValue` (a row), not the caller's.
      assign(2, ['incoming', 'currentValue', ''], ['method', 1, '/args/0/value']),
      assign(3, ['method', 1, '/return'], ['outgoing', 'newValue', '']),
    ];
    const rowFn = { name: 'row', incoming: [{ $id: 'currentValue' }, { $id: 'index' }, { $id: 'array' }], outgoing: [{ $id: 'newValue' }], steps: inner, functions: [upper] };
    const doc: JstDocument = {
      name: 'nested',
      incoming: [{ $id: 'currentValue' }],
      outgoing: [{ $id: 'rows' }, { $id: 'same' }],
      steps: [
        { id: 1, type: 'method', library: 'Array', method: 'map', args: [null, 'row'] },
        assign(2, ['incoming', 'currentValue', ''], ['method', 1, '/args/0/value']),
        assign(3, ['method', 1, '/return'], ['outgoing', 'rows', '']),
        assign(4, ['incoming', 'currentValue', ''], ['outgoing', 'same', '']),
      ],
      functions: [rowFn],
    };
    const { outgoing } = runTransformation(doc, { currentValue: [['a', 'b'], ['c']] });
    expect(outgoing).toEqual({ rows: [['A', 'B'], ['C']], same: [['a', 'b'], ['c']] });
  });

  it('passes the step arguments after the callback to the function as its later incoming values', () => {
    const add = fnOf('addSuffix', 'String', 'concat', [], ['currentValue', 'index', 'array', 'thisArg']);
    add.steps!.push(assign(900, ['incoming', 'thisArg', ''], ['method', add.steps![0]!.id, '/args/1/value']));
    const doc: JstDocument = {
      name: 'constants',
      incoming: [{ $id: 'items' }, { $id: 'suffix' }],
      outgoing: [{ $id: 'out' }],
      steps: [
        { id: 1, type: 'method', library: 'Array', method: 'map', args: [null, 'addSuffix', null] },
        assign(2, ['incoming', 'items', ''], ['method', 1, '/args/0/value']),
        assign(3, ['incoming', 'suffix', ''], ['method', 1, '/args/2/value']),
        assign(4, ['method', 1, '/return'], ['outgoing', 'out', '']),
      ],
      functions: [add],
    };
    expect(runTransformation(doc, { items: ['a', 'b'], suffix: '!' }).outgoing.out).toEqual(['a!', 'b!']);
  });

  it('gives a context parameter (isContext, isIndexed) the extra arguments as one object keyed by their index', () => {
    // As the service's exports wire it: Array.map(list, fn, groupId, adapterId), the callback's
    // thisArg holding { 0_groupId, 1_adapterId }.
    const rule: JstDocument['functions'] = [
      {
        name: 'rule',
        incoming: [{ $id: 'currentValue' }, { $id: 'index' }, { $id: 'array' }, { $id: 'thisArg', type: 'object', isContext: true, isIndexed: true, properties: { '0_groupId': { $id: 'groupId' }, '1_adapterId': { $id: 'adapterId' } } }],
        outgoing: [{ $id: 'rule', type: 'object' }],
        steps: [
          assign(1, ['incoming', 'currentValue', ''], ['outgoing', 'rule', '/port']),
          assign(2, ['incoming', 'thisArg', '/0_groupId'], ['outgoing', 'rule', '/groupId']),
          assign(3, ['incoming', 'thisArg', '/1_adapterId'], ['outgoing', 'rule', '/adapterId']),
        ],
        functions: [],
      },
    ];
    const doc: JstDocument = {
      name: 'context',
      incoming: [{ $id: 'ports' }, { $id: 'groupId' }, { $id: 'adapterId' }],
      outgoing: [{ $id: 'rules' }],
      steps: [
        { id: 10, type: 'method', library: 'Array', method: 'map', args: [null, 'rule', null, null] },
        assign(11, ['incoming', 'ports', ''], ['method', 10, '/args/0/value']),
        assign(12, ['incoming', 'groupId', ''], ['method', 10, '/args/2/value']),
        assign(13, ['incoming', 'adapterId', ''], ['method', 10, '/args/3/value']),
        assign(14, ['method', 10, '/return'], ['outgoing', 'rules', '']),
      ],
      functions: rule,
    };
    expect(runTransformation(doc, { ports: [22, 443], groupId: 'sg-1', adapterId: 'aws' }).outgoing.rules).toEqual([
      { port: 22, groupId: 'sg-1', adapterId: 'aws' },
      { port: 443, groupId: 'sg-1', adapterId: 'aws' },
    ]);
  });

  it('a function step answers its outgoing values by $id', () => {
    const pair = { name: 'pair', incoming: [{ $id: 'k' }, { $id: 'v' }], outgoing: [{ $id: 'tag' }], steps: [assign(1, ['incoming', 'k', ''], ['outgoing', 'tag', '/Key']), assign(2, ['incoming', 'v', ''], ['outgoing', 'tag', '/Value'])] };
    const doc: JstDocument = {
      name: 'function step',
      incoming: [{ $id: 'v' }],
      outgoing: [{ $id: 'tag' }],
      steps: [{ id: 1, type: 'function', function: 'pair', args: ['Name', null] }, assign(2, ['incoming', 'v', ''], ['function', 1, '/args/1/value']), assign(3, ['function', 1, '/return/tag'], ['outgoing', 'tag', ''])],
      functions: [pair],
    };
    expect(runTransformation(doc, { v: 'web' }).outgoing.tag).toEqual({ Key: 'Name', Value: 'web' });
  });

  it('never changes a value wired to two places', () => {
    const doc: JstDocument = {
      name: 'no aliasing',
      incoming: [{ $id: 'list' }],
      outgoing: [{ $id: 'pushed' }, { $id: 'original' }, { $id: 'edited' }],
      steps: [
        { id: 1, type: 'method', library: 'Array', method: 'push', args: [null, 'x'] },
        assign(2, ['incoming', 'list', ''], ['method', 1, '/args/0/value']),
        assign(3, ['method', 1, '/return'], ['outgoing', 'pushed', '']),
        assign(4, ['incoming', 'list', ''], ['outgoing', 'original', '']),
        assign(5, ['incoming', 'list', ''], ['outgoing', 'edited', '']),
        assign(6, ['static', 0, ''], ['outgoing', 'edited', '/0']),
      ],
    };
    const list = ['a'];
    const { outgoing } = runTransformation(doc, { list });
    expect(outgoing).toEqual({ pushed: ['a', 'x'], original: ['a'], edited: [undefined] });
    expect(list).toEqual(['a']);
  });
});

describe('the incoming check and defaults', () => {
  const doc: JstDocument = {
    name: 'typed',
    incoming: [{ $id: 'count', type: 'integer', default: 3 }, { $id: 'ip', type: 'string', format: 'ipv4' }],
    outgoing: [{ $id: 'count' }, { $id: 'missing', default: 'none' }],
    steps: [assign(1, ['incoming', 'count', ''], ['outgoing', 'count', ''])],
  };

  it('refuses a value that does not fit its schema, naming it', () => {
    const error = runError(doc, { count: 'three', ip: '1.2.3' });
    expect(error.reason).toBe('invalid-incoming');
    expect(error.message).toContain('incoming.count must be integer');
    expect(error.message).toContain('incoming.ip must match format "ipv4"');
  });

  it('takes the schema defaults for values not given and outgoing values never written', () => {
    expect(runTransformation(doc, { ip: '10.0.0.1' }).outgoing).toEqual({ count: 3, missing: 'none' });
    expect(runTransformation(doc, { ip: '10.0.0.1' }, { revertToDefaultValue: false }).outgoing).toEqual({ count: undefined, missing: undefined });
  });

  it('does not hold a schema ajv cannot read against the values, and says so', async () => {
    const odd: JstDocument = { name: 'odd', incoming: [{ $id: 'v', type: 'any' }], outgoing: [{ $id: 'v' }], steps: [assign(1, ['incoming', 'v', ''], ['outgoing', 'v', ''])] };
    expect(runTransformation(odd, { v: 3 }).outgoing.v).toBe(3);
    const { IncomingValidators, unreadableSchemas } = await import('../../core/transformations/incoming');
    expect(unreadableSchemas(odd, new IncomingValidators())).toEqual([expect.stringContaining('the incoming schema "v" cannot be read')]);
  });

  it('runs on values that do not fit when asked not to check', () => {
    expect(runTransformation(doc, { count: 'three' }, { validateIncoming: false }).outgoing.count).toBe('three');
  });
});

describe('errors and limits', () => {
  it('names the document, step, method and pointer of a step that fails', () => {
    const doc: JstDocument = {
      name: 'fails',
      incoming: [{ $id: 'x' }],
      outgoing: [{ $id: 'y' }],
      steps: [{ id: 7, type: 'method', library: 'JSON', method: 'parse', args: [null] }, assign(8, ['incoming', 'x', ''], ['method', 7, '/args/0/value']), assign(9, ['method', 7, '/return'], ['outgoing', 'y', ''])],
    };
    const error = runError(doc, { x: '{oops' });
    expect(error.reason).toBe('step-failed');
    expect(error.place).toMatchObject({ document: 'fails', step: 7, method: 'JSON.parse' });
    expect(error.message).toMatch(/^transformation "fails", step 7 \(JSON\.parse\): JSON\.parse: /);
  });

  it('names an unsupported method and step type before running', () => {
    const method: JstDocument = { name: 'm', steps: [{ id: 3, type: 'method', library: 'String', method: 'toKlingon', args: [null] }] };
    expect(() => checkDocument(method)).toThrow('transformation "m", step 3 (String.toKlingon): unsupported method String.toKlingon');
    const type: JstDocument = { name: 't', steps: [{ id: 4, type: 'loop' }] };
    expect(() => checkDocument(type)).toThrow('unsupported step type "loop"');
  });

  it('names an assign that points at a step the document does not have', () => {
    const doc: JstDocument = { name: 'dangling', outgoing: [{ $id: 'y' }], steps: [assign(1, ['method', 42, '/return'], ['outgoing', 'y', ''])] };
    expect(() => checkDocument(doc)).toThrow('transformation "dangling", step 1, at pointer "/return": the assign\'s `from` names step 42 (method), which the document does not have');
  });

  it('names the argument of a method given the wrong type, and a document whose lists are not lists', () => {
    const doc: JstDocument = {
      name: 'arg',
      incoming: [{ $id: 'x' }],
      outgoing: [{ $id: 'y' }],
      steps: [{ id: 5, type: 'method', library: 'Array', method: 'map', args: [null, 'f'] }, assign(6, ['incoming', 'x', ''], ['method', 5, '/args/0/value'])],
    };
    const error = runError(doc, { x: 'text' });
    expect(error.place).toMatchObject({ step: 5, method: 'Array.map', pointer: '/args/0/value' });
    expect(error.message).toBe('transformation "arg", step 5 (Array.map), at pointer "/args/0/value": Array.map needs an array as its first argument, got string "text"');
    expect(() => runTransformation({ name: 'bad', incoming: {} } as unknown as JstDocument, {})).toThrow('`incoming` must be an array of JSON schemas');
    expect(() => runTransformation({ name: 'bad', steps: [null] } as unknown as JstDocument, {})).toThrow('`steps` must be an array of objects');
  });

  it('refuses wiring that goes round in a circle', () => {
    const doc: JstDocument = {
      name: 'circle',
      steps: [
        { id: 1, type: 'method', library: 'Logical', method: 'not', args: [null] },
        { id: 2, type: 'method', library: 'Logical', method: 'not', args: [null] },
        assign(3, ['method', 1, '/return'], ['method', 2, '/args/0/value']),
        assign(4, ['method', 2, '/return'], ['method', 1, '/args/0/value']),
      ],
    };
    expect(() => runTransformation(doc, {})).toThrow('the wiring goes round in a circle through step 1, step 2');
  });

  it('ends a function that calls itself forever at the depth limit', () => {
    const self = { name: 'again', incoming: [{ $id: 'currentValue' }], outgoing: [{ $id: 'newValue' }], steps: [] as Step[] };
    self.steps.push(
      { id: 1, type: 'method', library: 'Array', method: 'map', args: [null, 'again'] },
      assign(2, ['incoming', 'currentValue', ''], ['method', 1, '/args/0/value']),
      assign(3, ['method', 1, '/return'], ['outgoing', 'newValue', '']),
    );
    const doc: JstDocument = { name: 'recursion', incoming: [{ $id: 'v' }], outgoing: [{ $id: 'out' }], steps: [...self.steps.map((s) => ({ ...s }))], functions: [self] };
    doc.steps![1] = assign(2, ['incoming', 'v', ''], ['method', 1, '/args/0/value']);
    doc.steps![2] = assign(3, ['method', 1, '/return'], ['outgoing', 'out', '']);
    // [[...]] nests deeper than the limit: each level maps the one inside it.
    let nested: unknown = [];
    for (let i = 0; i < 100; i++) nested = [nested];
    const error = runError(doc, { v: nested }, { maxDepth: 20 });
    expect(error.reason).toBe('limit');
    expect(error.message).toContain('more than 20 deep');
  });

  it('ends a run past its step budget or its time', () => {
    const doc: JstDocument = {
      name: 'big',
      incoming: [{ $id: 'items' }],
      outgoing: [{ $id: 'out' }],
      steps: [{ id: 1, type: 'method', library: 'Array', method: 'map', args: [null, 'id'] }, assign(2, ['incoming', 'items', ''], ['method', 1, '/args/0/value']), assign(3, ['method', 1, '/return'], ['outgoing', 'out', ''])],
      functions: [fnOf('id', 'Object', 'valueOf', [], ['currentValue', 'index', 'array'])],
    };
    const items = Array.from({ length: 5_000 }, (_, i) => i);
    expect(runError(doc, { items }, { maxSteps: 1_000 }).message).toContain('past 1000 steps');
    expect(runError(doc, { items: Array.from({ length: 200_000 }, (_, i) => i) }, { timeoutMs: 1 }).message).toContain('longer than 1 ms');
  });

  it('refuses to build a value too big to hold', () => {
    const doc: JstDocument = {
      name: 'huge',
      outgoing: [{ $id: 'out' }],
      steps: [{ id: 1, type: 'method', library: 'String', method: 'repeat', args: ['abc', 1e9] }, assign(2, ['method', 1, '/return'], ['outgoing', 'out', ''])],
    };
    expect(runError(doc, {}).message).toContain('String.repeat would make more than');
  });
});
