// A forEach's loop body (the tasks its `loop` transitions lead to) runs before the
// forEach takes its `success` transition, so a task after the loop may read a body
// task: the import takes it without a warning, and the job reads the body's last
// iteration. What the console only doubts is a warning in the import answer and on
// the workflow, never a refusal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../../support/host';
import { waitFor } from '../queue/support';

const standard = (state = 'success') => ({ type: 'standard', state });

// In the service's export format: positions, groups, location, and a body with no transition out.
const perDevice = {
  name: 'Upper-case each device',
  type: 'automation',
  canvasVersion: 3,
  font_size: 12,
  groups: [],
  tasks: {
    workflow_start: { name: 'workflow_start', groups: [], nodeLocation: { x: 0, y: 0 } },
    workflow_end: { name: 'workflow_end', groups: [], nodeLocation: { x: 900, y: 0 } },
    a1b2: {
      name: 'forEach',
      canvasName: 'forEach',
      summary: 'For each device',
      description: 'Loops over data_array',
      location: 'Application',
      locationType: null,
      app: 'WorkFlowEngine',
      type: 'operation',
      displayName: 'WorkFlowEngine',
      variables: { incoming: { data_array: '$var.job.devices' }, outgoing: { current_item: null }, error: '', decorators: [] },
      groups: [],
      actor: 'Pronghorn',
      nodeLocation: { x: 200, y: 0 },
    },
    c3d4: {
      name: 'toUpperCase',
      summary: 'Upper-case the device',
      location: 'Application',
      app: 'WorkFlowEngine',
      type: 'automatic',
      variables: { incoming: { str: { task: 'a1b2', variable: 'current_item' } }, outgoing: { uppercaseString: null }, error: '' },
      groups: [],
      actor: 'Pronghorn',
      nodeLocation: { x: 200, y: 200 },
    },
    e5f6: {
      name: 'newVariable',
      summary: 'Keep the last device',
      location: 'Application',
      app: 'WorkFlowEngine',
      type: 'automatic',
      variables: { incoming: { name: 'lastDevice', value: '$var.c3d4.uppercaseString' }, outgoing: { value: null }, error: '' },
      groups: [],
      actor: 'Pronghorn',
      nodeLocation: { x: 500, y: 0 },
    },
  },
  transitions: {
    workflow_start: { a1b2: standard() },
    a1b2: { c3d4: standard('loop'), e5f6: standard() },
    c3d4: {},
    e5f6: { workflow_end: standard() },
    workflow_end: {},
  },
  inputSchema: { type: 'object', properties: { devices: { type: 'array', items: { type: 'string' } } }, required: ['devices'] },
};

const doubtful = {
  name: 'Reads a task that runs later',
  tasks: {
    workflow_start: { name: 'workflow_start' },
    workflow_end: { name: 'workflow_end' },
    first: { name: 'trim', app: 'WorkFlowEngine', type: 'automatic', variables: { incoming: { str: '$var.second.noWhitespace' }, outgoing: {} } },
    second: { name: 'trim', app: 'WorkFlowEngine', type: 'automatic', variables: { incoming: { str: ' x ' }, outgoing: {} } },
  },
  transitions: { workflow_start: { first: standard() }, first: { second: standard() }, second: { workflow_end: standard() } },
};

interface TaskRun {
  taskId: string;
  status: string;
  outgoing: Record<string, unknown>;
}
interface Answer {
  warnings?: unknown[];
  canvasVersion?: number;
  data: { _id: string; status: string; variables: Record<string, unknown>; taskRuns: TaskRun[] };
  id: string;
  state: string;
  summary: { items: { name: string; outcome: string; message?: string }[] };
}

async function json(response: Response): Promise<{ status: number; body: Answer }> {
  return { status: response.status, body: (await response.json()) as Answer };
}

describe('loop bodies and warnings', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(() => host?.dispose());

  it('imports a workflow whose task after a forEach reads the loop body, with no warning', async () => {
    const imported = await host.api('/workflows', { method: 'POST', json: perDevice }).then(json);
    expect(imported.status).toBe(201);
    expect(imported.body.warnings).toEqual([]);
    expect(imported.body.canvasVersion).toBe(3);
  });

  it("runs it: the body runs once per element before the forEach goes on, and the reader gets the last iteration", async () => {
    const started = await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: 'Upper-case each device', options: { variables: { devices: ['r1', 'r2', 'r3'] } } } }).then(json);
    expect(started.status).toBe(200);
    const id = started.body.data._id;
    const job = await waitFor('the job to end', async () => {
      const { body } = await host.api(`/operations-manager/jobs/${id}`).then(json);
      return ['complete', 'error'].includes(body.data.status) && body.data;
    });
    expect(job.status).toBe('complete');
    expect(job.variables.lastDevice).toBe('R3');
    const bodyRuns = job.taskRuns.filter((t) => t.taskId === 'c3d4');
    expect(bodyRuns.map((t) => t.outgoing.uppercaseString)).toEqual(['R1', 'R2', 'R3']);
  });

  it('imports a workflow the console doubts, answering and showing its warnings', async () => {
    const imported = await host.api('/workflows', { method: 'POST', json: doubtful }).then(json);
    expect(imported.status).toBe(201);
    const expected = [
      {
        path: 'tasks.first.variables.incoming.str',
        task: 'first',
        message: 'task "first": str refers to $var.second.noWhitespace, but task "second" cannot have run before "first" (no transitions lead from it to "first")',
      },
    ];
    expect(imported.body.warnings).toEqual(expected);
    const read = await host.api(`/workflows/${encodeURIComponent(doubtful.name)}`).then(json);
    expect(read.status).toBe(200);
    expect(read.body.warnings).toEqual(expected);
  });

  it('imports the same workflow inside a pre-built, saying its warnings in the summary', async () => {
    const files = [
      { path: 'p/manifest.json', content: { bundleName: 'Doubtful', artifacts: [{ id: 'a', name: 'Reads a task that runs later', type: 'workflow', location: '/bundles/workflows/a.json' }] } },
      { path: 'p/bundles/workflows/a.json', content: doubtful },
    ];
    const start = await host.api('/projects/imports', { method: 'POST', json: { files } });
    expect(start.status).toBe(202);
    const { id } = (await start.json()) as Answer;
    const run = await waitFor('the import to finish', async () => {
      const now = (await host.api(`/projects/imports/${id}`).then(json)).body;
      return now.state !== 'running' && now;
    });
    expect(run.state).toBe('done');
    const item = run.summary.items.find((i) => i.name === 'Reads a task that runs later');
    expect(item?.outcome).toMatch(/imported|replaced/);
    expect(item?.message).toContain('task "second" cannot have run before "first"');
  });
});
