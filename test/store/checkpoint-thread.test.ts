// The WAL checkpoint thread (core/store/embedded/checkpoint.ts): a file written steadily is
// copied into the database file while the committing thread sends the checkpoint thread no
// message after the first (waking a thread cost the committer 0.1-0.5 ms a time); a file left
// alone is no longer polled, and its next write wakes the thread again.
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openEmbeddedStore } from '../../core/store/embedded/store';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'checkpoint-thread-'));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The checkpoint requests sent to the thread as messages. */
function countCheckpointMessages() {
  const sent = vi.spyOn(Worker.prototype, 'postMessage');
  return () => sent.mock.calls.filter(([message]) => (message as { type?: string }).type === 'checkpoint').length;
}

describe('the WAL checkpoint thread', () => {
  it('copies a steadily written WAL into the file with no message per request, and is woken again by a write after a pause', async () => {
    const messages = countCheckpointMessages();
    const store = await openEmbeddedStore(dir);
    const size = () => (existsSync(store.file) ? statSync(store.file).size : 0);
    const jobs = store.collection('jobs');
    await jobs.insertOne({ _id: 'first' });
    const before = size();
    // 1.2 s of writes, one commit every 2 ms: the store asks for a checkpoint every 20 ms of them.
    const until = Date.now() + 1200;
    let n = 0;
    while (Date.now() < until) {
      await jobs.insertOne({ _id: `j${n++}`, text: 'x'.repeat(400) });
      await sleep(2);
    }
    const deadline = Date.now() + 10_000;
    while (size() <= before + 16 * 2048 && Date.now() < deadline) await sleep(20);
    // The pages were copied into the database file, and the thread was told by message once (a
    // few times at most, where a loaded machine held the writes back long enough for it to stop
    // polling), not at every request the thread was free for (a dozen or so here before).
    expect(size()).toBeGreaterThan(before + 16 * 2048);
    const steady = messages();
    expect(steady).toBeGreaterThanOrEqual(1);
    expect(steady).toBeLessThanOrEqual(4);

    // Left alone, the file is no longer polled: the next write's request is a message again, and it is copied.
    await sleep(300);
    const copied = size();
    await jobs.insertMany(Array.from({ length: 50 }, (_v, i) => ({ _id: `late${i}`, text: 'y'.repeat(400) })));
    const again = Date.now() + 10_000;
    while (size() <= copied && Date.now() < again) await sleep(20);
    expect(size()).toBeGreaterThan(copied);
    expect(messages()).toBeGreaterThan(steady);
    expect(messages()).toBeLessThanOrEqual(steady + 2);
    expect(await jobs.count()).toBe(n + 51);
    await store.close();
  });

  it('polls each of two files written side by side, each copied into its own file', async () => {
    const a = await openEmbeddedStore(path.join(dir, 'a'));
    const b = await openEmbeddedStore(path.join(dir, 'b'));
    const sizes = () => [a, b].map((s) => (existsSync(s.file) ? statSync(s.file).size : 0));
    const before = sizes();
    for (let i = 0; i < 100; i++) {
      await a.collection('x').insertOne({ _id: `a${i}`, text: 'a'.repeat(400) });
      await b.collection('x').insertOne({ _id: `b${i}`, text: 'b'.repeat(400) });
      if (i % 10 === 0) await sleep(25);
    }
    const deadline = Date.now() + 10_000;
    while (sizes().some((s, i) => s <= before[i]! + 8 * 2048) && Date.now() < deadline) await sleep(20);
    expect(sizes()[0]).toBeGreaterThan(before[0]! + 8 * 2048);
    expect(sizes()[1]).toBeGreaterThan(before[1]! + 8 * 2048);
    await a.close();
    await b.close();
    // A closed file's flag is free for another: a third file is checkpointed as well.
    const c = await openEmbeddedStore(path.join(dir, 'c'));
    const first = existsSync(c.file) ? statSync(c.file).size : 0;
    await c.collection('x').insertMany(Array.from({ length: 60 }, (_v, i) => ({ _id: `c${i}`, text: 'c'.repeat(400) })));
    const third = Date.now() + 10_000;
    while (statSync(c.file).size <= first + 8 * 2048 && Date.now() < third) await sleep(20);
    expect(statSync(c.file).size).toBeGreaterThan(first + 8 * 2048);
    await c.close();
  });
});
