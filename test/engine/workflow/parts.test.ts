import { describe, expect, it } from 'vitest';
import { createPartsCatalog } from '../../../core/engine/workflow/catalog';
import { describeNeeds, missingParts } from '../../../core/engine/workflow/parts';

const adapters = (installed: Record<string, string[]>) => ({ list: () => Object.keys(installed), methods: (id: string) => installed[id] });

const tasks = {
  workflow_start: { name: 'workflow_start' },
  a: { name: 'createChangeRequest', app: 'Servicenow', type: 'automatic', location: 'Adapter' },
  b: { name: 'getChangeRequests', app: 'Servicenow', type: 'automatic', location: 'Adapter' },
  c: { name: 'RunCommandTemplate', app: 'MOP', type: 'automatic', location: 'Application' },
  d: { name: 'ShowJsonForm', app: 'JsonForms', type: 'manual', location: 'Application' },
  e: { name: 'ViewData', app: 'WorkFlowEngine', type: 'manual', location: 'Application' },
  f: { name: 'transformation', app: 'WorkFlowEngine', type: 'operation', variables: { incoming: { tr_id: 'jst-1', variableMap: {} } } },
  g: { name: 'transformation', app: 'WorkFlowEngine', type: 'operation', variables: { incoming: { tr_id: '$var.job.which' } } },
  h: { name: 'childJob', app: 'WorkFlowEngine', type: 'operation', variables: { incoming: { workflow: '@0123456789abcdef01234567: Child', variables: {} } } },
  i: { name: 'childJob', app: 'WorkFlowEngine', type: 'operation', variables: { incoming: { workflow: { task: 'static', value: 'Other child' } } } },
  j: { name: 'toUpperCase', app: 'WorkFlowEngine', type: 'automatic' },
};

describe('missingParts', () => {
  it('names each missing adapter, application, method, child workflow and transformation with the tasks that need it', () => {
    const applications = new Map([
      ['WorkFlowEngine', ['transformation', 'childJob', 'toUpperCase']],
      ['MOP', []],
    ]);
    const catalog = createPartsCatalog({ adapters: adapters({}), applications, transformationIds: [], workflowNames: [] });
    const needs = missingParts(tasks, catalog);
    expect(needs.map((p) => [p.kind, p.name, p.tasks])).toEqual([
      ['adapter', 'Servicenow', ['a', 'b']],
      ['application', 'JsonForms', ['d']],
      ['method', 'MOP.RunCommandTemplate', ['c']],
      ['transformation', 'jst-1', ['f']],
      ['workflow', '@0123456789abcdef01234567: Child', ['h']],
      ['workflow', 'Other child', ['i']],
    ].sort((x, y) => ['adapter', 'application', 'method', 'workflow', 'transformation'].indexOf(x[0] as string) - ['adapter', 'application', 'method', 'workflow', 'transformation'].indexOf(y[0] as string)));
    expect(describeNeeds(needs.slice(0, 1))).toBe('Servicenow (2 tasks)');
  });

  it('is satisfied once the parts are there: an adapter instance with the methods, the child workflows (project names too), the transformation', () => {
    const catalog = createPartsCatalog({
      adapters: adapters({ Servicenow: ['createChangeRequest', 'getChangeRequests'] }),
      applications: new Map([
        ['WorkFlowEngine', ['transformation', 'childJob', 'toUpperCase']],
        ['MOP', ['RunCommandTemplate']],
        ['JsonForms', ['ShowJsonForm']],
      ]),
      transformationIds: ['jst-1'],
      workflowNames: ['Child', 'Other child'],
    });
    expect(missingParts(tasks, catalog)).toEqual([]);
  });

  it('names a method the installed adapter lacks', () => {
    const catalog = createPartsCatalog({ adapters: adapters({ Servicenow: ['createChangeRequest'] }), applications: new Map(), transformationIds: ['jst-1'], workflowNames: ['Child', 'Other child'] });
    expect(missingParts({ a: tasks.a, b: tasks.b }, catalog)).toEqual([
      { kind: 'method', name: 'Servicenow.getChangeRequests', tasks: ['b'], label: 'method Servicenow.getChangeRequests (1 task)' },
    ]);
  });
});
