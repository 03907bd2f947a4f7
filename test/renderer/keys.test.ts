// The query-key factory: every key names a contract operation, a change makes stale the
// queries of exactly the operations it touches, and no page keeps keys of its own.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { contract } from '../../core/contract';
import { AFFECTS, qk, refreshAfter, staleAfter } from '../../renderer/api/keys';

const operations = new Set(Object.keys(contract));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('query keys', () => {
  it('every key of the factory starts with an operation of the contract', () => {
    for (const [name, make] of Object.entries(qk)) {
      const key = (make as (...args: unknown[]) => readonly unknown[])('health.adapters', {});
      expect(operations.has(String(key[0])), `${name} → ${String(key[0])}`).toBe(true);
    }
    for (const [change, names] of Object.entries(AFFECTS)) {
      for (const name of names) expect(operations.has(name), `${change} → ${name}`).toBe(true);
    }
  });

  it('a job change makes the job, the jobs list and attention stale, and not the workflows', async () => {
    const client = new QueryClient();
    const keys = [qk.job('j1'), qk.jobs({ status: 'error' }, 0), qk.jobs({}, 3), qk.attention(), qk.workflows(), qk.workflow('w')];
    for (const key of keys) client.setQueryData(key, { seen: true });
    await refreshAfter(client, 'job');
    const stale = keys.filter((key) => client.getQueryState(key)?.isInvalidated).map((key) => key[0]);
    expect(stale).toEqual(['jobs.get', 'jobs.list', 'jobs.list', 'console.attention']);
  });

  it('changes together name each operation once', () => {
    const names = staleAfter('job', 'manualTask', 'worker');
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining(['tasks.worklist', 'workers.status', 'health.status']));
  });

  it('no page writes a key or an invalidation list of its own', () => {
    const offenders = sources('renderer')
      .filter((path) => !path.endsWith(join('api', 'keys.ts')))
      .filter((path) => /queryKey:\s*\[|invalidateQueries\(\s*\{/.test(readFileSync(path, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
