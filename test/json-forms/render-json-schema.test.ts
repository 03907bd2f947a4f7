// JsonForms' RenderJsonSchema: a manual task whose form is made from the schemas it is
// given (no stored form); the job waits for an operator, and what they submit is `export`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';
import { waitFor } from '../engine/queue/support';

const standard = { type: 'standard', state: 'success' };
const askForDevice = {
  name: 'Ask for a device',
  tasks: {
    workflow_start: { name: 'workflow_start', groups: [] },
    workflow_end: { name: 'workflow_end', groups: [] },
    f00d: {
      name: 'RenderJsonSchema',
      summary: 'Which device?',
      app: 'JsonForms',
      type: 'manual',
      location: 'Application',
      groups: [],
      variables: {
        incoming: {
          jsonSchema: { type: 'object', properties: { device: { type: 'string', title: 'Device' } }, required: ['device'] },
          uiSchema: {},
          bindingSchema: {},
          validationSchema: {},
          formData: { device: 'r1' },
        },
        outgoing: { export: '$var.job.answers' },
      },
    },
  },
  transitions: { workflow_start: { f00d: standard }, f00d: { workflow_end: standard }, workflow_end: {} },
};

interface Answer {
  items: { name: string; needs: unknown[] }[];
  data: { _id: string; status: string; variables: Record<string, unknown>; taskRuns: { taskId: string; status: string; incoming: Record<string, unknown> }[] };
}

async function json(response: Response): Promise<{ status: number; body: Answer }> {
  return { status: response.status, body: (await response.json()) as Answer };
}

describe('JsonForms RenderJsonSchema', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(() => host?.dispose());

  it('is a task the console has: the workflow imports needing nothing, and its job waits for an operator whose answers are export', async () => {
    expect((await host.api('/workflows', { method: 'POST', json: askForDevice })).status).toBe(201);
    const listed = await host.api('/workflows').then(json);
    expect(listed.body.items.find((w) => w.name === 'Ask for a device')?.needs).toEqual([]);

    const started = await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: 'Ask for a device', options: { variables: {} } } }).then(json);
    expect(started.status).toBe(200);
    const id = started.body.data._id;
    const waiting = await waitFor('the form to wait for an operator', async () => {
      const { body } = await host.api(`/operations-manager/jobs/${id}`).then(json);
      return body.data.taskRuns.find((t) => t.taskId === 'f00d' && t.status === 'waiting');
    });
    expect(waiting.incoming.formData).toEqual({ device: 'r1' });

    const finished = await host.api(`/operations-manager/jobs/${id}/tasks/f00d/finish`, { method: 'POST', json: { values: { export: { device: 'r2' } } } });
    expect(finished.status).toBe(200);
    const done = await waitFor('the job to complete', async () => {
      const { body } = await host.api(`/operations-manager/jobs/${id}`).then(json);
      return body.data.status === 'complete' && body.data;
    });
    expect(done.variables.answers).toEqual({ device: 'r2' });
  });
});
