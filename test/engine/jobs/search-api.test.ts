// The jobs list as the service's search API answers it (GET /operations-manager/jobs): the shape
// { message, data, metadata: { total, skip, limit } }, the query forms equals[field],
// contains[field], starts-with[field], ends-with[field], in/not-in[field], gt/gte/lt/lte[field],
// sort and order as the service names them, a job's type, last_updated (an ISO date) and ancestors,
// and the vendor MCP server's paging loop ending. Over HTTP on a real host (embedded store).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../../support/host';
import { waitFor, workflow } from '../queue/support';

const upper = (name: string) => workflow(name, { up: { name: 'toUpperCase', variables: { incoming: { str: 'x' }, outgoing: {} } } }, [['workflow_start', 'up'], ['up', 'workflow_end']]);
const WORKFLOWS = ['Deploy router', 'Deploy switch', 'Backup (nightly)', '@6123abc: Project job'];

async function json(response: Response) {
  return { status: response.status, body: (await response.json()) };
}

describe('the jobs list in the service search API shape', () => {
  let host: TestHost;
  const started: Record<string, string> = {};
  let before = 0;
  beforeAll(async () => {
    host = await startTestHost();
    for (const name of WORKFLOWS) expect((await host.api('/workflows', { method: 'POST', json: upper(name) })).status).toBeLessThan(300);
    before = Date.now();
    for (const name of WORKFLOWS) {
      const answer = await json(await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: name, options: { description: `job of ${name}` } } }));
      started[name] = answer.body.data._id;
    }
    await waitFor('the jobs to complete', async () => (await list('equals[status]=complete')).body.metadata.total === WORKFLOWS.length);
  });
  afterAll(() => host.dispose());

  const list = (query: string) => host.api(`/operations-manager/jobs?${query}`).then(json);
  const names = (body: any) => body.data.map((j: any) => j.name).sort();

  it('answers { message, data, metadata } with each job whole as the service shows it', async () => {
    const { status, body } = await list('limit=2');
    expect(status).toBe(200);
    expect(body).toEqual({ message: expect.any(String), data: expect.any(Array), metadata: { total: 4, skip: 0, limit: 2 } });
    const job = body.data[0];
    expect(job).toMatchObject({ _id: expect.any(String), name: expect.any(String), type: 'automation', status: 'complete', ancestors: [job._id] });
    expect(new Date(job.last_updated).toISOString()).toBe(job.last_updated);
    // The same fields on one job, as the MCP server's describe_job reads them.
    const one = (await json(await host.api(`/operations-manager/jobs/${started['Deploy router']}`))).body.data;
    expect(one).toMatchObject({ type: 'automation', ancestors: [started['Deploy router']], last_updated: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), tasks: expect.any(Object) });
    // The console's own job: acted on here.
    expect(one).not.toHaveProperty('writtenBy');
  });

  it('filters by equals, starts-with, ends-with, contains, in and not-in, each on any dotted field', async () => {
    expect(names((await list(`equals[name]=${encodeURIComponent('Deploy router')}`)).body)).toEqual(['Deploy router']);
    expect((await list('equals[name]=Deploy')).body.metadata.total).toBe(0);
    expect(names((await list('starts-with[name]=Deploy')).body)).toEqual(['Deploy router', 'Deploy switch']);
    // A project's jobs, as the MCP server asks for them: the name's prefix, its special characters as they are.
    expect(names((await list(`starts-with[name]=${encodeURIComponent('@6123abc')}`)).body)).toEqual(['@6123abc: Project job']);
    expect(names((await list('ends-with[name]=switch')).body)).toEqual(['Deploy switch']);
    expect(names((await list(`contains[name]=${encodeURIComponent('(nightly)')}`)).body)).toEqual(['Backup (nightly)']);
    expect(names((await list(`contains[description]=${encodeURIComponent('of Deploy')}`)).body)).toEqual(['Deploy router', 'Deploy switch']);
    expect(names((await list(`in[name]=${encodeURIComponent('Deploy router,Deploy switch')}`)).body)).toEqual(['Deploy router', 'Deploy switch']);
    expect(names((await list(`not-in[name]=${encodeURIComponent('Deploy router')}&not-in[name]=${encodeURIComponent('Deploy switch')}`)).body)).toEqual(['@6123abc: Project job', 'Backup (nightly)']);
    expect((await list(`equals[_id]=${started['Deploy switch']}`)).body.data.map((j: any) => j._id)).toEqual([started['Deploy switch']]);
    expect((await list(`equals[ancestors.0]=${started['Deploy switch']}`)).body.metadata.total).toBe(1);
    // Several forms: every one holds.
    expect(names((await list('starts-with[name]=Deploy&ends-with[name]=router&equals[status]=complete')).body)).toEqual(['Deploy router']);
  });

  it('compares times given as ms or ISO dates, and sorts and orders as the service names them', async () => {
    expect((await list(`gte[metrics.start_time]=${before}`)).body.metadata.total).toBe(4);
    expect((await list(`lt[metrics.start_time]=${new Date(before).toISOString()}`)).body.metadata.total).toBe(0);
    expect((await list(`gt[last_updated]=${new Date(before - 1000).toISOString()}`)).body.metadata.total).toBe(4);
    const oldest = (await list('sort=metrics.start_time&order=1')).body.data.map((j: any) => j._id);
    const newest = (await list('sort=metrics.start_time&order=-1')).body.data.map((j: any) => j._id);
    expect(oldest).toEqual(WORKFLOWS.map((n) => started[n]));
    expect(newest).toEqual([...oldest].reverse());
  });

  it('pages as the MCP server reads it: skip by limit until it has metadata.total jobs', async () => {
    const seen: string[] = [];
    for (let skip = 0, rounds = 0; rounds < 10; skip += 3, rounds++) {
      const { body } = await list(`limit=3&skip=${skip}`);
      seen.push(...body.data.map((j: any) => j._id));
      if (seen.length === body.metadata.total) break;
    }
    expect(seen.sort()).toEqual(Object.values(started).sort());
  });

  it('refuses a form it cannot read with a 400 naming the key', async () => {
    const unknown = await list('like[name]=x');
    expect(unknown.status).toBe(400);
    expect(unknown.body.issues).toEqual([expect.objectContaining({ path: 'query.like[name]', message: expect.stringContaining('unknown query operator "like"') })]);
    const field = await list(`equals[${encodeURIComponent('$where')}]=1`);
    expect(field.status).toBe(400);
    expect(field.body.message).toContain('is not a field');
    const time = await list('gt[metrics.start_time]=yesterday');
    expect(time.status).toBe(400);
    expect(time.body.message).toContain('gt[metrics.start_time]: "yesterday" is not a time');
    expect((await list('order=sideways')).status).toBe(400);
  });
});
