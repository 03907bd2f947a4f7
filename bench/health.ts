// Adapter processes: how long a start takes until the adapter answers, the round trip of a
// method call, a health list of every adapter (one health query per process), the memory of
// one idle adapter process, and a crash until the adapter answers again.
import path from 'node:path';
import { AdapterManager, readAdapterPackage, runnerPath, shippedAdaptersDir, type ServiceConfig } from '../core/adapters';

const FIXTURES = path.resolve(import.meta.dirname, '../test/adapters/fixtures');

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function timed(n: number, fn: () => Promise<unknown>) {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { n, p50_ms: +percentile(times, 50).toFixed(3), p95_ms: +percentile(times, 95).toFixed(3), max_ms: +times.at(-1)!.toFixed(3) };
}

const config = (id: string, type: string, properties: Record<string, unknown>): ServiceConfig => ({ id, type, properties, brokers: [], groups: [] });

export async function benchHealth() {
  const example = (await readAdapterPackage(path.join(shippedAdaptersDir(), 'example'), 'shipped'))!;
  const inventory = (await readAdapterPackage(path.join(FIXTURES, 'adapter-inventory'), 'sdk'))!;
  const manager = new AdapterManager({ runner: runnerPath(), backoff: { initialMs: 10, maxMs: 10 } });
  manager.set(config('example', 'Example', { greeting: 'hi', healthcheck: { type: 'none' } }), example);
  manager.set(config('inventory-stub', 'Inventory', { host: 'inventory.invalid', port: 443, stub: true }), inventory);
  manager.set(config('crasher', 'Inventory', { host: 'inventory.invalid', port: 443, healthcheck: { type: 'none' } }), inventory);
  const rows: Record<string, unknown>[] = [];
  try {
    const start = await timed(1, async () => {
      await manager.start('example');
      await manager.start('inventory-stub');
      await manager.start('crasher');
    });
    rows.push({ what: 'start 3 adapter instances until ready', ...start });
    rows.push({ what: 'call example.add (IPC round trip, pronghorn order + callback)', ...(await timed(2000, () => manager.call('example', 'add', { a: 1, b: 2 }))) });
    rows.push({ what: 'call example.echo with a 100 kB string', ...(await timed(200, () => manager.call('example', 'echo', { message: 'x'.repeat(100_000) }))) });
    rows.push({ what: 'stub call inventory.getDevice (answer from mock data file)', ...(await timed(2000, () => manager.call('inventory-stub', 'getDevice', { name: 'router-1' }))) });
    rows.push({ what: 'health of all 3 adapters', ...(await timed(200, () => manager.items())) });
    rows.push({
      what: 'crash until answering again',
      ...(await timed(5, async () => {
        await manager.call('crasher', 'crash', {}).catch(() => undefined);
        for (;;) {
          const ok = await manager.call('crasher', 'argsInOrder', {}, { timeoutMs: 5000 }).then(
            () => true,
            () => false,
          );
          if (ok) return;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })),
    });
    const item = await manager.item('example');
    rows.push({ what: `idle adapter process rss (example, pid ${item.pid})`, n: 1, p50_ms: '', p95_ms: '', max_ms: '', rss_mb: +((item.memoryUsage?.rss ?? 0) / 2 ** 20).toFixed(1) });
  } finally {
    await manager.close();
  }
  return rows;
}
