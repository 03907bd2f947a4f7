// Work is bounded, waiting is not: the worker's bound counts tasks that run (an adapter call in
// flight counts), and its default leaves room beside 100 slow adapter calls for the one-task
// jobs of other workflows. An adapter instance's own throttle (its properties.throttle, as the
// service's adapters declare it) bounds that instance's calls.
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../core/engine/index';
import { AdapterManager } from '../../../core/adapters/manager';
import { simulatedPackage } from '../../../core/adapters/simulated/instance';
import type { ServiceConfig } from '../../../core/adapters/service-config';
import { CallThrottle, throttleOf } from '../../../core/adapters/throttle';
import { DEFAULT_CONCURRENCY } from '../../../core/engine/worker/options';
import { tempEmbeddedStore, waitFor, workflow, type TempStore } from '../queue/support';

let temp: TempStore | undefined;
let engine: Engine | undefined;
let manager: AdapterManager | undefined;
afterEach(async () => {
  await engine?.close();
  await manager?.close();
  await temp?.dispose();
  engine = temp = manager = undefined;
});

/** A simulated instance whose `slowCall` answers after `latencyMs` (a latency rule), with `properties`. */
async function slowInstance(latencyMs: number, properties: Record<string, unknown> = {}) {
  const simulation = { methods: { slowCall: { rules: [{ latencyMs, response: { done: true } }] } } };
  const config: ServiceConfig = { id: 'SlowDevice', type: 'Slow', properties, brokers: [], groups: [], simulation };
  manager = new AdapterManager({ runner: 'unused: simulated instances run in this process' });
  manager.set(config, simulatedPackage(config, simulation));
  await manager.start('SlowDevice');
  return manager;
}

const slow = workflow('slow', { call: { name: 'slowCall', app: 'SlowDevice', variables: { incoming: {}, outgoing: {} } } }, [['workflow_start', 'call'], ['call', 'workflow_end']]);
const upper = workflow('upper', { t: { name: 'toUpperCase', variables: { incoming: { str: '$var.job.text' }, outgoing: { uppercaseString: '$var.job.result' } } } }, [['workflow_start', 't'], ['t', 'workflow_end']]);

describe("the worker's bound", () => {
  it('by default leaves room beside 100 adapter calls of 30 s: one-task jobs of another workflow complete', async () => {
    expect(DEFAULT_CONCURRENCY).toBeGreaterThan(100);
    temp = await tempEmbeddedStore();
    const adapters = await slowInstance(30_000);
    await temp.store.collection('workflows').insertMany([slow, upper]);
    engine = await new Engine({ store: temp.store, serverId: 's', serverName: 's', processTasksOnStart: true, adapters: () => adapters, worker: { idleMs: 50 } }).open();
    for (let i = 0; i < 100; i++) await engine.runner.start('slow');
    await waitFor('100 adapter calls in flight', async () => (await temp!.store.collection('tasks').count({ taskId: 'call', status: 'running' })) === 100, 15_000);
    const quick: string[] = [];
    for (let i = 0; i < 5; i++) quick.push((await engine.runner.start('upper', { variables: { text: `job ${i}` } }))._id);
    // A generous deadline on the outcome, not a timing: the slow calls take 30 s.
    await waitFor('the 5 one-task jobs to complete', async () => (await temp!.store.collection('jobs').count({ _id: { $in: quick }, status: 'complete' })) === 5, 15_000);
    expect(await temp.store.collection('tasks').count({ taskId: 'call', status: 'running' })).toBe(100);
    expect(engine.worker.busy).toBe(100);
  });
});

describe("an adapter instance's throttle (properties.throttle)", () => {
  it('is read only where enabled with a concurrent_max', () => {
    expect(throttleOf({})).toBeUndefined();
    expect(throttleOf({ throttle: { throttle_enabled: false, concurrent_max: 2 } })).toBeUndefined();
    expect(throttleOf({ throttle: { throttle_enabled: true, number_pronghorns: 1, sync_async: 'sync', max_in_queue: 1000, concurrent_max: 2, expire_timeout: 0, avg_runtime: 200 } })).toEqual({ concurrentMax: 2, maxInQueue: 1000, expireTimeoutMs: 0 });
  });

  it('keeps at most concurrent_max calls outstanding, in order, and refuses a call beyond max_in_queue', async () => {
    const throttle = new CallThrottle({ concurrentMax: 2, maxInQueue: 3, expireTimeoutMs: 0 }, 'Device');
    let now = 0;
    let most = 0;
    const order: number[] = [];
    const call = (i: number) => async () => {
      most = Math.max(most, ++now);
      await new Promise((r) => setTimeout(r, 30));
      now--;
      order.push(i);
      return i;
    };
    const runs = [0, 1, 2, 3, 4, 5].map((i) => throttle.run('slowCall', call(i)));
    const settled = await Promise.allSettled(runs);
    expect(most).toBe(2);
    expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(5);
    const refused = settled.find((s) => s.status === 'rejected') as PromiseRejectedResult;
    expect(String(refused.reason.message)).toContain('throttle queue is full (3 calls waiting, properties.throttle.max_in_queue');
    expect(order).toEqual([0, 1, 2, 3, 4]);
    expect(throttle.load).toEqual({ active: 0, queued: 0 });
  });

  it("bounds an instance's calls made through the adapters", async () => {
    const adapters = await slowInstance(200, { throttle: { throttle_enabled: true, concurrent_max: 1, max_in_queue: 10 } });
    const started = Date.now();
    const answers = await Promise.all([1, 2, 3].map(() => adapters.call('SlowDevice', 'slowCall', {})));
    expect(answers.every((a) => a.ok)).toBe(true);
    // One at a time: three calls of 200 ms take 600 ms or more.
    expect(Date.now() - started).toBeGreaterThanOrEqual(590);
  });
});
