// Both reference forms the service writes, resolved anywhere in a value; ordinary data is left alone.
import { describe, expect, it } from 'vitest';
import { isObjectReference, jobTarget, parseReference, referencesIn, resolveValue, type ReferenceScope } from '../../core/values/references';
import { childJobVariables } from '../../core/values/undefined-codec';

const scope: ReferenceScope = {
  job: { _id: 'job1', vpcId: 'vpc-1', zero: 0, none: null },
  task: (id) => (id === '12c9' ? { ruleList: [{ port: 22 }], result: { status: 'FINISHED' } } : undefined),
};

describe('references', () => {
  it('resolves the string forms: $var.job.<name> and $var.<taskId>.<outVar>', () => {
    expect(resolveValue('$var.job.vpcId', scope)).toBe('vpc-1');
    expect(resolveValue('$var.job._id', scope)).toBe('job1');
    expect(resolveValue('$var.12c9.ruleList', scope)).toEqual([{ port: 22 }]);
    expect(resolveValue('$var.job.neverSet', scope)).toBeUndefined();
    expect(resolveValue('$var.dead.x', scope)).toBeUndefined();
    expect(resolveValue('see $var.job.vpcId', scope)).toBe('see $var.job.vpcId');
  });

  it('reads a JSON pointer written after the name, as the newer exports do ($var.f001.export#/deviceName)', () => {
    expect(resolveValue('$var.12c9.result#/status', scope)).toBe('FINISHED');
    expect(resolveValue('$var.12c9.ruleList#/0/port', scope)).toBe(22);
    expect(resolveValue('$var.job.vpcId#/missing', scope)).toBeUndefined();
    expect(resolveValue('$var.12c9.result#/nothing/here', scope)).toBeUndefined();
    // The variable is the name before `#/`: the run reads the task's records for it.
    expect(parseReference('$var.f001.export#/deviceName')).toEqual({ kind: 'task', taskId: 'f001', name: 'export', pointer: '/deviceName' });
    expect(parseReference('$var.job.device#/a~1b')).toEqual({ kind: 'job', name: 'device', pointer: '/a~1b' });
    expect(resolveValue('$var.job.device#/a~1b', { ...scope, job: { device: { 'a/b': 'slash' } } })).toBe('slash');
  });

  it('resolves the object forms with variable or value, with or without editable', () => {
    expect(resolveValue({ task: 'job', variable: 'vpcId' }, scope)).toBe('vpc-1');
    expect(resolveValue({ editable: false, task: 'job', value: 'vpcId' }, scope)).toBe('vpc-1');
    expect(resolveValue({ task: '12c9', value: 'ruleList' }, scope)).toEqual([{ port: 22 }]);
    expect(resolveValue({ task: '12c9', variable: 'result' }, scope)).toEqual({ status: 'FINISHED' });
    expect(resolveValue({ task: 'static', variable: 'vpc-id', editable: true }, scope)).toBe('vpc-id');
    expect(resolveValue({ task: 'static', variable: true }, scope)).toBe(true);
    expect(resolveValue({ task: 'static', value: null }, scope)).toBeNull();
    expect(resolveValue({ task: 'job', variable: 'zero' }, scope)).toBe(0);
  });

  it('resolves references inside arrays and objects (merge data_to_merge, evaluation operands, childJob variables)', () => {
    const data_to_merge = [
      { key: 'name', value: { task: 'static', variable: 'vpc-id', editable: true } },
      { key: 'value', value: { task: 'job', variable: 'vpcId', editable: true } },
    ];
    expect(resolveValue({ data_to_merge }, scope)).toEqual({ data_to_merge: [{ key: 'name', value: 'vpc-id' }, { key: 'value', value: 'vpc-1' }] });
    const evaluation_groups = [{ all_true_flag: true, evaluations: [{ query: 'status', operand_1: { variable: 'result', task: '12c9' }, operator: '==', operand_2: { variable: 'FINISHED', task: 'static' } }] }];
    expect(resolveValue(evaluation_groups, scope)).toEqual([{ all_true_flag: true, evaluations: [{ query: 'status', operand_1: { status: 'FINISHED' }, operator: '==', operand_2: 'FINISHED' }] }]);
  });

  it('does not mistake ordinary data objects for references', () => {
    // A childJob's own incoming has a `task` key among others.
    const childJobIncoming = { task: '', workflow: 'W', variables: {}, data_array: '', transformation: '', loopType: '' };
    expect(resolveValue(childJobIncoming, scope)).toEqual(childJobIncoming);
    for (const data of [{ task: 'job', variable: 'vpcId', extra: 1 }, { task: 1, value: 2 }, { task: 'job' }, { task: '', variable: 'x' }, { task: 'job', variable: 5 }]) {
      expect(isObjectReference(data) && parseReference(data) !== undefined, JSON.stringify(data)).toBe(false);
      expect(resolveValue(data, scope), JSON.stringify(data)).toEqual(data);
    }
  });

  it('lists the references of a value and the job variable a target writes, in both forms', () => {
    expect(referencesIn({ a: ['$var.x.y', { task: 'job', value: 'v' }], b: 'plain' })).toEqual([
      { kind: 'task', taskId: 'x', name: 'y' },
      { kind: 'job', name: 'v' },
    ]);
    expect(jobTarget('$var.job.publicIp')).toBe('publicIp');
    expect(jobTarget({ task: 'job', variable: 'publicIp' })).toBe('publicIp');
    expect(jobTarget('')).toBeUndefined();
    expect(jobTarget(null)).toBeUndefined();
    expect(jobTarget('$var.3101.return_data')).toBeUndefined();
  });

  it('child-job variables: an object reference to an unset variable arrives as null, a static null stays null', () => {
    const variables = resolveValue({ vpcId: { task: 'job', value: 'neverSet' }, keep: { task: 'static', value: null }, nested: { a: '$var.job.nope' } }, scope) as Record<string, unknown>;
    expect(childJobVariables(variables)).toEqual({ vpcId: null, keep: null, nested: { a: null } });
  });
});
