// The Transformations page lists a document's steps in the order they run, not the order the
// designer saved them (ids 9, 1, 4, 6): a step after the steps feeding it, else by id; then the
// wiring from the incoming values through the steps to the outgoing ones.
import { describe, expect, it } from 'vitest';
import { orderedRows } from '../../renderer/transformations/steps';

const method = (id: number, name: string) => ({ id, type: 'method', library: 'String', method: name, args: [null] });
const assign = (id: number, from: object, to: object) => ({ id, type: 'assign', from, to });

describe('the order of the step list', () => {
  it('puts each step after the ones whose values it is given, ties by id, then the wiring in that order', () => {
    const steps = [
      method(9, 'toUpperCase'),
      method(1, 'trim'),
      method(4, 'concat'),
      method(6, 'split'),
      assign(12, { location: 'method', name: 9, ptr: '/return' }, { location: 'outgoing', name: 'loud' }),
      assign(2, { location: 'incoming', name: 'text' }, { location: 'method', name: 6, ptr: '/args/0/value' }),
      assign(7, { location: 'method', name: 6, ptr: '/return' }, { location: 'method', name: 1, ptr: '/args/0/value' }),
      assign(11, { location: 'method', name: 1, ptr: '/return' }, { location: 'method', name: 9, ptr: '/args/0/value' }),
    ];
    // 6 feeds 1, 1 feeds 9; 4 stands alone and comes by its id.
    expect(orderedRows(steps).map((r) => r.id)).toEqual(['4', '6', '1', '9', '2', '7', '11', '12']);
  });

  it('keeps numeric ids in number order when nothing wires them', () => {
    expect(orderedRows([method(9, 'a'), method(1, 'b'), method(4, 'c'), method(6, 'd')]).map((r) => r.id)).toEqual(['1', '4', '6', '9']);
  });
});
