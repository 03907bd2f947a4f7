// The Transformations page's readable step list, from a corpus document.
import { describe, expect, it } from 'vitest';
import { orderedRows } from '../../renderer/transformations/steps';
import { corpusAvailable, corpusDoc } from './corpus';

describe.skipIf(!corpusAvailable())('the readable step list', () => {
  it('lists what each step does, then the wiring from → to', () => {
    const rows = orderedRows(corpusDoc('Build VPC Filter').steps);
    expect(rows.slice(0, 2)).toEqual([
      { id: '3', kind: 'function', what: 'function buildFilterObject', detail: '("vpc-id", ·)', from: '', to: '' },
      { id: '10', kind: 'declaration', what: 'Array.new Array', detail: '(·)', from: '', to: '' },
    ]);
    expect(rows.find((r) => r.id === '11')).toMatchObject({ kind: 'assign', from: 'step 3 /return/tag', to: 'step 10 /args/0/value' });
    expect(rows.find((r) => r.id === '13')).toMatchObject({ from: 'incoming vpcId', to: 'step 3 /args/1/value' });
    expect(rows.find((r) => r.id === '12')).toMatchObject({ from: 'step 10 /return', to: 'outgoing vpcFilter' });
  });
});
