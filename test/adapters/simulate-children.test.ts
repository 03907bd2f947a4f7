// "Simulate what is missing" follows child workflows: a parent whose child (or grandchild, by name,
// by `@project: name` or by the stored `_id`) calls a missing adapter gets that adapter simulated, and
// the parent is then Ready. Child references that loop back end the walk.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeJsonAtomic } from '../../core/files/atomic';
import { propertiesFile } from '../../core/profiles/directory';
import { withChildWorkflows, type WorkflowTasks } from '../../core/adapters/simulated/needs';
import { startTestHost, type TestHost } from '../support/host';
import { workflow } from '../engine/queue/support';

const child = (name: string, workflowRef: string) => ({ name: 'childJob', app: 'WorkFlowEngine', type: 'operation', variables: { incoming: { task: '', workflow: workflowRef, variables: {} }, outgoing: { job_details: null } } });
const getDevice = { name: 'getDevice', app: 'Inventory', type: 'automatic', location: 'Adapter', variables: { incoming: { name: 'edge-1' }, outgoing: { result: null } } };
const grandchild = workflow('Look up a device', { get: getDevice }, [['workflow_start', 'get'], ['get', 'workflow_end']]);
const middle = workflow('Check a device', { run: child('run', 'Look up a device'), back: child('back', 'Onboard a device') }, [['workflow_start', 'run'], ['run', 'workflow_end']]);
const parent = workflow('Onboard a device', { run: child('run', '@0123456789abcdef01234567: Check a device') }, [['workflow_start', 'run'], ['run', 'workflow_end']]);

describe('Simulate what is missing, through child workflows', () => {
  let host: TestHost;
  let dataDir: string;
  const api = async (pathname: string, init?: Parameters<TestHost['api']>[1]) => {
    const response = await host.api(pathname, init);
    return { status: response.status, body: await response.json() };
  };
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-simulate-children-'));
    await writeJsonAtomic(propertiesFile(dataDir, 'lab'), { id: 'lab', processTasksOnStart: true });
    host = await startTestHost({ dataDir });
    for (const doc of [grandchild, middle, parent]) expect((await api('/workflows', { method: 'POST', json: doc })).status).toBeLessThan(300);
  });
  afterAll(async () => {
    await host?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('makes the adapter a grandchild calls, and the parent becomes Ready', async () => {
    const before = (await api('/workflows')).body.items.find((w: { name: string }) => w.name === 'Onboard a device');
    expect(before.needs.map((p: { kind: string; name: string }) => `${p.kind} ${p.name}`)).toEqual(['adapter Inventory']);
    const made = await api('/adapters/simulate', { method: 'POST', json: { workflows: ['Onboard a device'] } });
    expect(made.status).toBe(200);
    expect(made.body.results).toEqual([{ id: 'Inventory', type: 'Inventory', mode: 'simulated', methods: ['getDevice'], workflows: ['Look up a device'], status: 'created' }]);
    const after = (await api('/workflows')).body.items.find((w: { name: string }) => w.name === 'Onboard a device');
    expect(after.needs).toEqual([]);
  });
});

describe('withChildWorkflows', () => {
  const flow = (name: string, children: string[], _id?: string): WorkflowTasks => ({
    name,
    ...(_id ? { _id } : {}),
    tasks: Object.fromEntries(children.map((ref, i) => [`c${i}`, child(`c${i}`, ref)])),
  });

  it('takes a child named by its stored _id, and skips a $var reference and an unknown child', () => {
    const all = [flow('A', ['65303d7838c4c401873707d5', '$var.job.which', 'Nowhere']), flow('B', [], '65303d7838c4c401873707d5')];
    expect(withChildWorkflows([all[0]!], all).map((w) => w.name)).toEqual(['A', 'B']);
  });

  it('ends on any graph of references, cycles included, taking each reachable workflow once', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.nat(5), { maxLength: 4 }), { minLength: 1, maxLength: 6 }), (edges) => {
        const all = edges.map((to, i) => flow(`W${i}`, to.filter((j) => j < edges.length).map((j) => `W${j}`)));
        const reached = withChildWorkflows([all[0]!], all).map((w) => w.name);
        expect(new Set(reached).size).toBe(reached.length);
        // Every child of a reached workflow is reached too.
        for (const name of reached) for (const ref of edges[Number(name.slice(1))]!.filter((j) => j < edges.length)) expect(reached).toContain(`W${ref}`);
      }),
    );
  });
});
