// A bulk action on every job the Jobs list's filter matches ("Select all N matching"): the
// filter, not a page of ids, decides what is acted on; a body naming both or neither is a 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../../support/host';
import { waitFor, workflow } from '../queue/support';

const manual = (name: string) =>
  workflow(name, { ask: { name: 'approve', type: 'manual', variables: { incoming: {}, outgoing: { decision: '$var.job.decision' } } } }, [
    ['workflow_start', 'ask'],
    ['ask', 'workflow_end'],
  ]);

async function json(response: Response) {
  return { status: response.status, body: await response.json() };
}

describe('bulk actions by filter', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
    for (const name of ['hold-a', 'hold-b']) expect((await host.api('/workflows', { method: 'POST', json: manual(name) })).status).toBeLessThan(300);
  });
  afterAll(() => host.dispose());

  const start = async (name: string) => (await json(await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: name } }))).body.data._id as string;
  const status = async (id: string) => (await json(await host.api(`/operations-manager/jobs/${id}`))).body.data.status as string;

  it('pauses every job of one workflow, leaving the others running', async () => {
    const a = [await start('hold-a'), await start('hold-a'), await start('hold-a')];
    const b = await start('hold-b');
    const paused = await json(await host.api('/operations-manager/jobs/pause', { method: 'POST', json: { filter: { workflow: 'hold-a' } } }));
    expect(paused.status).toBe(200);
    expect(paused.body.data).toMatchObject({ done: 3, failed: 0 });
    expect(paused.body.data.results.map((r: { _id: string }) => r._id).sort()).toEqual([...a].sort());
    for (const id of a) await waitFor(`job ${id} paused`, async () => (await status(id)) === 'paused');
    expect(await status(b)).not.toBe('paused');
    // The filter acts on what the list shows under it: a paused job whose manual task waits is listed as waiting.
    const listed = await json(await host.api('/operations-manager/jobs?workflow=hold-a&status=waiting&limit=1'));
    expect(listed.body.metadata.total).toBe(3);
    const canceled = await json(await host.api('/operations-manager/jobs/cancel', { method: 'POST', json: { filter: { workflow: 'hold-a', status: 'waiting' } } }));
    expect(canceled.body.message).toBe('3 of 3 jobs canceled');
    expect(await status(b)).toBe('running');
  });

  it('refuses a body naming the jobs both ways, or neither, with a 400 naming jobIds', async () => {
    for (const body of [{ jobIds: ['x'], filter: {} }, {}, { filter: { colour: 'red' } }]) {
      const answer = await json(await host.api('/operations-manager/jobs/cancel', { method: 'POST', json: body }));
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.issues[0].path).toMatch(/^body\.(jobIds|filter)/);
    }
  });
});
