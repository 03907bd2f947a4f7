// Adapter processes: how long a start takes until the adapter answers, the round trip of a
// method call, a health list of every adapter (one health query per process), the memory of
// one idle adapter process, and a crash until the adapter answers again.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AdapterManager, discoverAdapters, runnerPath, shippedAdaptersDir } from '../core/adapters';

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

export async function benchHealth() {
  const empty = await mkdtemp(path.join(os.tmpdir(), 'bench-adapters-'));
  const definitions = [...(await discoverAdapters(shippedAdaptersDir(), empty)), ...(await discoverAdapters(empty, FIXTURES)).filter((d) => d.id === 'crasher')];
  const manager = new AdapterManager(definitions, { runner: runnerPath(), configDir: empty, backoff: { initialMs: 10, maxMs: 10 } });
  const rows: Record<string, unknown>[] = [];
  try {
    const start = await timed(1, async () => {
      await manager.start('example');
      await manager.start('http-request');
      await manager.start('crasher');
    });
    rows.push({ what: 'start 3 adapters until ready', ...start });
    rows.push({ what: 'call example.add (IPC round trip)', ...(await timed(2000, () => manager.call('example', 'add', { a: 1, b: 2 }))) });
    rows.push({
      what: 'call example.echo with a 100 kB string',
      ...(await timed(200, () => manager.call('example', 'echo', { message: 'x'.repeat(100_000) }))),
    });
    rows.push({ what: 'health of all 3 adapters', ...(await timed(200, () => manager.items())) });
    rows.push({
      what: 'crash until answering again',
      ...(await timed(5, async () => {
        await manager.call('crasher', 'crash', {}).catch(() => undefined);
        for (;;) {
          const ok = await manager.call('crasher', 'ok', {}, { timeoutMs: 5000 }).then(
            () => true,
            () => false,
          );
          if (ok) return;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })),
    });
    const example = await manager.item('example');
    rows.push({ what: `idle adapter process rss (example, pid ${example.pid})`, n: 1, p50_ms: '', p95_ms: '', max_ms: '', rss_mb: +((example.memoryUsage?.rss ?? 0) / 2 ** 20).toFixed(1) });
  } finally {
    await manager.close();
    await rm(empty, { recursive: true, force: true });
  }
  return rows;
}
