// The WAL reading of `npm run bench -- wal` (bench/engine-wal.ts): the frames of each commit, by page,
// read from a WAL file node:sqlite wrote, and the runtime bench saying why it does not run.
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { commitsOf } from '../../bench/engine-wal';
import { benchRuntime } from '../../bench/engine-runtime';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the wal bench', () => {
  it('reads one frame per page a commit changed, commit by commit', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-wal-'));
    dirs.push(dir);
    const file = path.join(dir, 'x.sqlite');
    const db = new DatabaseSync(file);
    db.exec('PRAGMA page_size = 2048; PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0');
    for (const t of ['a', 'b', 'c']) db.exec(`CREATE TABLE ${t} (id INTEGER PRIMARY KEY, v TEXT)`);
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    const roots = (db.prepare("SELECT name, rootpage FROM sqlite_schema WHERE type = 'table'").all() as { name: string; rootpage: number }[]).map((r) => Number(r.rootpage));
    // Ten transactions of a row in each of the three tables, then five of a row in the first alone.
    for (let i = 0; i < 10; i++) db.exec(`BEGIN; INSERT INTO a (v) VALUES ('${i}'); INSERT INTO b (v) VALUES ('${i}'); INSERT INTO c (v) VALUES ('${i}'); COMMIT`);
    for (let i = 0; i < 5; i++) db.exec(`INSERT INTO a (v) VALUES ('x${i}')`);
    copyFileSync(`${file}-wal`, path.join(dir, 'copy.wal'));
    db.close();
    const commits = commitsOf(readFileSync(path.join(dir, 'copy.wal')));
    expect(commits).toHaveLength(15);
    for (const commit of commits.slice(0, 10)) expect([...commit].sort((x, y) => x - y)).toEqual([...roots].sort((x, y) => x - y));
    for (const commit of commits.slice(10)) expect(commit).toEqual([roots[0]]);
  });

  it('says how to run the runtime comparison when no second Node is named', async () => {
    const saved = process.env.RUNTIME_COMPARE_NODE;
    delete process.env.RUNTIME_COMPARE_NODE;
    try {
      expect(await benchRuntime()).toEqual({ skipped: expect.stringMatching(/set RUNTIME_COMPARE_NODE to a Node binary/) });
    } finally {
      if (saved !== undefined) process.env.RUNTIME_COMPARE_NODE = saved;
    }
  });
});
