// Seeds a console the way an operator finds it on a bad day: jobs in error, manual
// tasks waiting for an operator, completed jobs, a stopped adapter and a missing index.
import type { TestHost } from './host';

export const APPROVAL = 'cockpit-approval';
export const FAILING = 'cockpit-codepoint';

export const approvalFlow = {
  name: APPROVAL,
  tasks: {
    workflow_start: { name: 'workflow_start', x: 0.1, y: 0.5 },
    workflow_end: { name: 'workflow_end', x: 0.9, y: 0.5 },
    ask: {
      name: 'approve',
      app: 'WorkFlowEngine',
      type: 'manual',
      summary: 'Approve the change',
      x: 0.4,
      y: 0.5,
      variables: { incoming: { change: '$var.job.change' }, outgoing: { decision: '$var.job.decision' } },
    },
    shout: { name: 'toUpperCase', app: 'WorkFlowEngine', type: 'automatic', x: 0.7, y: 0.5, variables: { incoming: { str: '$var.ask.decision' }, outgoing: { uppercaseString: '$var.job.loud' } } },
  },
  transitions: {
    workflow_start: { ask: { type: 'standard', state: 'success' } },
    ask: { shout: { type: 'standard', state: 'success' } },
    shout: { workflow_end: { type: 'standard', state: 'success' } },
  },
};

/** codePointAt of position 1 in a one-letter string errors, with no error transition: the job stops in error. */
export const failingFlow = {
  name: FAILING,
  tasks: {
    workflow_start: { name: 'workflow_start' },
    workflow_end: { name: 'workflow_end' },
    cp: { name: 'codePointAt', app: 'WorkFlowEngine', type: 'automatic', variables: { incoming: { str: '$var.job.s', pos: 1 }, outgoing: { codePointValue: '$var.job.cp' } } },
  },
  transitions: {
    workflow_start: { cp: { type: 'standard', state: 'success' } },
    cp: { workflow_end: { type: 'standard', state: 'success' } },
  },
};

export interface Seeded {
  errored: string[];
  waiting: string[];
  stoppedAdapter?: string;
  droppedIndex: { collection: string; name: string };
}

async function ok(response: Response, what: string) {
  if (response.status >= 300) throw new Error(`${what}: ${response.status} ${await response.text()}`);
  return (await response.json());
}

export async function waitUntil<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function seedCockpit(host: TestHost, counts = { errored: 3, waiting: 2 }): Promise<Seeded> {
  for (const flow of [approvalFlow, failingFlow]) await ok(await host.api('/workflows', { method: 'POST', json: flow }), `import ${flow.name}`);
  const start = async (workflow: string, description: string, variables: Record<string, unknown>) =>
    (await ok(await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow, options: { description, variables } } }), `start ${workflow}`)).data._id as string;
  const errored: string[] = [];
  for (let i = 0; i < counts.errored; i++) errored.push(await start(FAILING, `broken ${i}`, { s: 'x', ticket: `INC-${100 + i}` }));
  const waiting: string[] = [];
  for (let i = 0; i < counts.waiting; i++) waiting.push(await start(APPROVAL, `CR-${i + 1}`, { change: `CR-${i + 1}` }));
  await waitUntil('the seeded jobs to settle', async () => {
    const err = await ok(await host.api('/operations-manager/jobs?status=error&limit=500'), 'list errored');
    const wait = await ok(await host.api('/operations-manager/jobs?status=waiting&limit=500'), 'list waiting');
    return err.metadata.total >= counts.errored && wait.metadata.total >= counts.waiting;
  });

  // A new profile has no adapter instance: one from the shipped example's sample, to stop.
  const sample = await ok(await host.api('/adapter-packages/sample?package=%40automation%2Fadapter-example&name=example'), 'example sample');
  await ok(await host.api('/adapters', { method: 'POST', json: { properties: sample.data } }), 'create example');
  const adapters = await ok(await host.api('/health/adapters'), 'list adapters');
  const stoppedAdapter = adapters.results[0]?.id as string | undefined;
  if (stoppedAdapter) await ok(await host.api(`/adapters/${encodeURIComponent(stoppedAdapter)}/stop`, { method: 'PUT' }), `stop ${stoppedAdapter}`);

  const droppedIndex = { collection: 'jobs', name: 'name_1_metrics.start_time_-1' };
  await host.state.runtime.store.collection(droppedIndex.collection).dropIndex(droppedIndex.name);
  return { errored, waiting, stoppedAdapter, droppedIndex };
}
