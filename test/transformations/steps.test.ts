// The Transformations page's readable step list, from a document in the service's format
// (the project's own fixture; the corpus's when it is there).
import { describe, expect, it } from 'vitest';
import { orderedRows } from '../../renderer/transformations/steps';
import { corpus, fixtures, CORPUS_TAG, noteCorpusSkip } from './corpus';

noteCorpusSkip('the step list of a real document');

describe('the readable step list', () => {
  it('lists what each step does, then the wiring from → to', () => {
    const rows = orderedRows(fixtures.transformation('Build Tag Filter - Example').steps);
    expect(rows.slice(0, 2)).toEqual([
      { id: '3', kind: 'function', what: 'function buildFilter', detail: '("tag:Name", ·)', from: '', to: '' },
      { id: '10', kind: 'declaration', what: 'Array.new Array', detail: '(·)', from: '', to: '' },
    ]);
    expect(rows.find((r) => r.id === '11')).toMatchObject({ kind: 'assign', from: 'step 3 /return/filter', to: 'step 10 /args/0/value' });
    expect(rows.find((r) => r.id === '13')).toMatchObject({ from: 'incoming deviceName', to: 'step 3 /args/1/value' });
    expect(rows.find((r) => r.id === '12')).toMatchObject({ from: 'step 10 /return', to: 'outgoing tagFilter' });
  });

  it.skipIf(!corpus.present)(`lists the steps of a real export ${CORPUS_TAG}`, () => {
    const rows = orderedRows(corpus.transformation('Build VPC Filter').steps);
    expect(rows.slice(0, 2)).toEqual([
      { id: '3', kind: 'function', what: 'function buildFilterObject', detail: '("vpc-id", ·)', from: '', to: '' },
      { id: '10', kind: 'declaration', what: 'Array.new Array', detail: '(·)', from: '', to: '' },
    ]);
    expect(rows.find((r) => r.id === '13')).toMatchObject({ from: 'incoming vpcId', to: 'step 3 /args/1/value' });
  });
});
