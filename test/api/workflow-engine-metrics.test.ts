// GET /workflow_engine/jobs/metrics and /workflow_engine/tasks/metrics as the service's clients read
// them: the vendor's MCP server pages with limit and skip until it holds `total` results, asks by
// containsField/contains (jobs) or equalsField/equals (tasks: workflow.name, app, name), and reads each
// result into its JobMetricElement (_id, workflow, metrics[], jobsComplete, totalRunTime) or
// TaskMetricElement (_id, taskId, taskType, name, metrics[], app, workflow). The oracle of every count
// and run time is the jobs themselves as GET /operations-manager/jobs/:id answers them (the job's
// metrics and its taskRuns); of the query, the service's API reference (get-job-metrics, get-task-metrics).
// Over HTTP on a real host (embedded store).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';
import { waitFor, workflow } from '../engine/queue/support';

let host: TestHost;
const api = async (path: string) => {
  const res = await host.api(path);
  return { status: res.status, body: await res.json() };
};
const query = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();

// Two workflows of the same two task methods; a job of "Add VLAN" given a number stops in error at t1.
const twoSteps = (name: string) =>
  workflow(
    name,
    {
      t1: { name: 'toUpperCase', variables: { incoming: { str: '$var.job.text' }, outgoing: { uppercaseString: '$var.job.loud' } } },
      t2: { name: 'toLowerCase', variables: { incoming: { str: '$var.job.loud' }, outgoing: { lowercaseString: null } } },
    },
    [['workflow_start', 't1'], ['t1', 't2'], ['t2', 'workflow_end']],
  );

interface EndedJob {
  name: string;
  status: string;
  metrics: { start_time: number; end_time?: number };
  taskRuns: { taskId: string; name: string; status: string; metrics: { start_time?: number; end_time?: number } }[];
}
let ended: EndedJob[] = [];

async function runJob(workflowName: string, text: unknown): Promise<EndedJob> {
  const res = await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: workflowName, options: { variables: { text } } } });
  const id = (await res.json()).data._id;
  return waitFor(`job ${id} to end`, async () => {
    const job = (await api(`/operations-manager/jobs/${id}`)).body.data as EndedJob;
    return ['complete', 'error'].includes(job.status) && job;
  });
}

const runTime = (m: { start_time?: number; end_time?: number }) => (m.end_time ?? 0) - (m.start_time ?? 0);
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
/** The runs of task `taskId` (a method of the WorkFlowEngine) in the ended jobs of `workflowName` (every workflow when absent). */
const runsOf = (method: string, workflowName?: string) =>
  ended.filter((j) => workflowName === undefined || j.name === workflowName).flatMap((j) => j.taskRuns.filter((t) => t.name === method && ['complete', 'error'].includes(t.status)));

/** Every result as the MCP server's pydantic models require it (their required fields and types). */
function expectJobMetricElement(result: Record<string, unknown>) {
  expect(result._id).toMatch(/^[0-9a-f]{24}$/);
  expect(Object.values(result.workflow as object).every((v) => typeof v === 'string')).toBe(true);
  expect(Array.isArray(result.metrics)).toBe(true);
  expect(Number.isInteger(result.jobsComplete)).toBe(true);
  expect(typeof result.totalRunTime).toBe('number');
}
function expectTaskMetricElement(result: Record<string, unknown>) {
  expect(result._id).toMatch(/^[0-9a-f]{24}$/);
  for (const field of ['taskType', 'name', 'app']) expect(typeof result[field]).toBe('string');
  expect(Array.isArray(result.metrics)).toBe(true);
  if (result.workflow !== undefined) expect(Object.values(result.workflow as object).every((v) => typeof v === 'string')).toBe(true);
}

/** Pages as the MCP server's _paginate does: skip += limit until it holds `total` results. */
async function paginate(path: string, params: Record<string, string>, limit: number) {
  const results: Record<string, unknown>[] = [];
  for (let skip = 0; ; skip += limit) {
    const { status, body } = await api(`${path}?${query({ ...params, limit, skip })}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ skip, limit, total: expect.any(Number) });
    results.push(...body.results);
    if (results.length >= body.total) return results;
  }
}

beforeAll(async () => {
  host = await startTestHost();
  for (const name of ['Backup configs', 'Add VLAN']) expect((await host.api('/workflows', { method: 'POST', json: twoSteps(name) })).status).toBe(201);
  for (let i = 0; i < 3; i++) ended.push(await runJob('Backup configs', `cfg-${i}`));
  for (const text of ['vlan-10', 'vlan-20', 42]) ended.push(await runJob('Add VLAN', text));
  ended = ended.map((j) => ({ ...j, taskRuns: j.taskRuns.filter((t) => !['workflow_start', 'workflow_end'].includes(t.taskId)) }));
  expect(ended.map((j) => j.status)).toEqual(['complete', 'complete', 'complete', 'complete', 'complete', 'error']);
}, 60_000);
afterAll(() => host.dispose());

describe('GET /workflow_engine/jobs/metrics', () => {
  it('answers one result per workflow with completed jobs, sorted by workflow.name, counts and run times of its complete jobs', async () => {
    const { status, body } = await api('/workflow_engine/jobs/metrics');
    expect(status).toBe(200);
    expect(body).toMatchObject({ skip: 0, total: 2 });
    expect(body.results.map((r: { workflow: { name: string } }) => r.workflow)).toEqual([{ name: 'Add VLAN' }, { name: 'Backup configs' }]);
    for (const result of body.results) {
      expectJobMetricElement(result);
      const complete = ended.filter((j) => j.name === result.workflow.name && j.status === 'complete');
      expect(result.jobsComplete).toBe(complete.length);
      expect(result.totalRunTime).toBe(sum(complete.map((j) => runTime(j.metrics))));
      // Its periods (UTC days) add up to it, each from the first start of a complete job that day.
      expect(sum(result.metrics.map((m: { jobsComplete: number }) => m.jobsComplete))).toBe(result.jobsComplete);
      expect(sum(result.metrics.map((m: { totalRunTime: number }) => m.totalRunTime))).toBe(result.totalRunTime);
      const days = new Set(complete.map((j) => new Date(j.metrics.start_time).toISOString().slice(0, 10)));
      expect(result.metrics).toHaveLength(days.size);
      for (const period of result.metrics) expect(complete.map((j) => new Date(j.metrics.start_time).toISOString())).toContain(period.startDate);
    }
    expect(body.results[0].jobsComplete).toBe(2);
    expect(body.results[1].jobsComplete).toBe(3);
    // The same aggregate keeps its _id from call to call.
    expect((await api('/workflow_engine/jobs/metrics')).body.results[0]._id).toBe(body.results[0]._id);
  });

  it('pages by total as the MCP server does, and filters as get_job_metrics_for_workflow asks (case-sensitive)', async () => {
    const all = await paginate('/workflow_engine/jobs/metrics', {}, 1);
    expect(all.map((r) => (r.workflow as { name: string }).name)).toEqual(['Add VLAN', 'Backup configs']);
    const vlan = await paginate('/workflow_engine/jobs/metrics', { containsField: 'workflow.name', contains: 'VLAN' }, 100);
    expect(vlan.map((r) => r.jobsComplete)).toEqual([2]);
    expect((await api(`/workflow_engine/jobs/metrics?${query({ containsField: 'workflow.name', contains: 'vlan' })}`)).body.total).toBe(0);
    expect((await api(`/workflow_engine/jobs/metrics?${query({ contains: 'configs' })}`)).body.results[0].workflow.name).toBe('Backup configs');
  });

  it('orders, sorts and keeps the results with a period since greaterThanEquals', async () => {
    const reversed = (await api('/workflow_engine/jobs/metrics?order=-1')).body.results.map((r: { workflow: { name: string } }) => r.workflow.name);
    expect(reversed).toEqual(['Backup configs', 'Add VLAN']);
    expect((await api('/workflow_engine/jobs/metrics?sort=jobsComplete&order=-1&limit=1')).body).toMatchObject({ results: [{ jobsComplete: 3 }], limit: 1, total: 2 });
    const first = Math.min(...ended.map((j) => j.metrics.start_time));
    const since = (ms: number) => api(`/workflow_engine/jobs/metrics?${query({ greaterThanEqualsField: 'metrics.startDate', greaterThanEquals: ms })}`);
    expect((await since(first)).body.total).toBe(2);
    expect((await since(Date.now() + 86_400_000)).body).toMatchObject({ results: [], total: 0 });
  });
});

describe('GET /workflow_engine/tasks/metrics', () => {
  it('answers a global row per application and method and a row per workflow task, with successes, errors and run times', async () => {
    const { status, body } = await api('/workflow_engine/tasks/metrics');
    expect(status).toBe(200);
    expect(body.total).toBe(6);
    // Sorted by workflow.name: the global rows (no workflow) first.
    expect(body.results.map((r: { global: boolean; workflow?: { name: string } }) => r.workflow?.name ?? null)).toEqual([null, null, 'Add VLAN', 'Add VLAN', 'Backup configs', 'Backup configs']);
    for (const result of body.results) {
      expectTaskMetricElement(result);
      expect(result).toMatchObject({ app: 'WorkFlowEngine', taskType: 'automatic' });
      const runs = runsOf(result.name, result.workflow?.name);
      if (result.global) expect(result).not.toHaveProperty('workflow');
      else expect(result.taskId).toBe(result.name === 'toUpperCase' ? 't1' : 't2');
      const successes = runs.filter((t) => t.status === 'complete');
      const errors = runs.filter((t) => t.status === 'error');
      const total = (field: string) => sum(result.metrics.map((m: Record<string, number>) => m[field]!));
      expect(total('totalSuccesses')).toBe(successes.length);
      expect(total('totalErrors')).toBe(errors.length);
      expect(total('totalSuccessRunTime')).toBe(sum(successes.map((t) => runTime(t.metrics))));
      expect(total('totalErrorRunTime')).toBe(sum(errors.map((t) => runTime(t.metrics))));
      for (const period of result.metrics) expect(Date.parse(period.startDate)).toBeGreaterThan(0);
    }
    const globalUpper = body.results.find((r: { global: boolean; name: string }) => r.global && r.name === 'toUpperCase');
    expect(sum(globalUpper.metrics.map((m: { totalSuccesses: number }) => m.totalSuccesses))).toBe(5);
    expect(sum(globalUpper.metrics.map((m: { totalErrors: number }) => m.totalErrors))).toBe(1);
  });

  it('filters as the MCP server asks (workflow.name, app, task name) and pages by total', async () => {
    const byWorkflow = await paginate('/workflow_engine/tasks/metrics', { equalsField: 'workflow.name', equals: 'Add VLAN' }, 1);
    // Both rows of one workflow: equal in workflow.name, so in _id order (a set here).
    expect(byWorkflow.map((r) => `${String(r.taskId)} ${String(r.name)}`).sort()).toEqual(['t1 toUpperCase', 't2 toLowerCase']);
    expect((await paginate('/workflow_engine/tasks/metrics', { equalsField: 'app', equals: 'WorkFlowEngine' }, 4)).length).toBe(6);
    const byTask = await paginate('/workflow_engine/tasks/metrics', { equalsField: 'name', equals: 'toUpperCase' }, 100);
    expect(byTask.map((r) => r.global)).toEqual([true, false, false]);
    expect((await api(`/workflow_engine/tasks/metrics?${query({ equals: 'add vlan' })}`)).body.total).toBe(0);
    const later = await api(`/workflow_engine/tasks/metrics?${query({ greaterThanEquals: Date.now() + 86_400_000 })}`);
    expect(later.body).toMatchObject({ results: [], skip: 0, total: 0 });
  });
});

describe('a query value the service does not take', () => {
  it.each([
    ['/workflow_engine/jobs/metrics?order=2', 'order'],
    ['/workflow_engine/jobs/metrics?limit=-1', 'limit'],
    ['/workflow_engine/jobs/metrics?skip=1.5', 'skip'],
    ['/workflow_engine/jobs/metrics?containsField=status&contains=x', 'containsField'],
    ['/workflow_engine/jobs/metrics?greaterThanEquals=yesterday', 'greaterThanEquals'],
    ['/workflow_engine/tasks/metrics?greaterThanEqualsField=metrics.endDate&greaterThanEquals=0', 'greaterThanEqualsField'],
    ['/workflow_engine/tasks/metrics?equalsField=status&equals=error', 'equalsField'],
    ['/workflow_engine/tasks/metrics?sort=', 'sort'],
  ])('%s answers 400 naming %s', async (path, parameter) => {
    const { status, body } = await api(path);
    expect(status).toBe(400);
    expect(body.message).toContain(`query.${parameter}`);
  });
});
