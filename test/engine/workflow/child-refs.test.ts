// A workflow's needs fold in its children's however a childJob names them: by name, `@<projectId>: Name`
// or the stored `_id`; a loop of references ends; a missing transformation carries its task's summary.
import { describe, expect, it } from 'vitest';
import type { StoredWorkflow } from '../../../core/contract/workflows';
import { createPartsCatalog } from '../../../core/engine/workflow/catalog';
import { listNeeds, unresolvedChildren } from '../../../core/engine/workflow/child-needs';

const stamp = { created: '2026-01-01T00:00:00.000Z', lastUpdated: '2026-01-01T00:00:00.000Z', transitions: {} };
const childJob = (workflow: string) => ({ name: 'childJob', app: 'WorkFlowEngine', type: 'operation', variables: { incoming: { task: '', workflow, variables: {} }, outgoing: {} } });
const flow = (name: string, tasks: Record<string, unknown>): StoredWorkflow => ({ name, tasks, ...stamp }) as StoredWorkflow;

const CHILD_ID = '65303d7838c4c401873707d5';
const docs = [
  flow('Parent', { a: childJob(CHILD_ID), b: childJob('@0123456789abcdef01234567: Sibling') }),
  flow('Child', { get: { name: 'getDevice', app: 'Inventory', type: 'automatic', location: 'Adapter' }, back: childJob('Parent') }),
  flow('Sibling', { jst: { name: 'transformation', app: 'WorkFlowEngine', type: 'operation', summary: 'Build the filter', variables: { incoming: { tr_id: '650c5b428f256f016dabc635' } } } }),
];

describe('child workflow references', () => {
  it('folds in a child named by its stored _id and one named with a project prefix, through a loop', async () => {
    expect(unresolvedChildren(docs)).toEqual([CHILD_ID]);
    const idNames = new Map([[CHILD_ID, 'Child']]);
    const catalog = createPartsCatalog({ transformationIds: [], workflowNames: [...docs.map((d) => d.name), CHILD_ID] });
    const needs = (await listNeeds(docs, catalog, idNames)).get('Parent')!;
    expect(needs.map((p) => [p.kind, p.name, p.title, p.tasks])).toEqual([
      ['adapter', 'Inventory', undefined, ["Child: get"]],
      ['transformation', '650c5b428f256f016dabc635', 'Build the filter', ['Sibling: jst']],
    ]);
  });
});
