// `npm run bench -- layouts`: documents stored as JSON text (the embedded store's layout) or
// as SQLite's JSONB (`jsonb()`, SQLite >= 3.45), measured side by side in raw node:sqlite on
// the engine's job document and its five indexes: an insert, the completing update (through a
// JavaScript function, as the store's mongo_update), and a read parsed in JavaScript, in its
// own transaction each, WAL and synchronous=NORMAL. Rounds alternate the layouts; each figure
// is the median of all rounds, printed with the load average. (Issue 32 asked to weigh JSONB:
// this is the measurement the decision rests on; docs/performance.md says what was kept.)
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sqlite } from '../core/store/embedded/sqlite';

const DOCS = 10_000;
const ROUNDS = 3;
const INDEXES = [['status', 'metrics.start_time'], ['name', 'metrics.start_time'], ['metrics.start_time'], ['parent.job', 'metrics.start_time'], ['status', 'last_updated']];

function jobDoc(i: number, now: number) {
  return {
    _id: `job${i}`, name: 'bench', description: '', status: 'running', variables: { text: `job ${i}` }, metrics: { start_time: now, user: 'console' }, children: [],
    tasks: { workflow_start: { name: 'workflow_start' }, workflow_end: { name: 'workflow_end' }, t1: { name: 'toUpperCase', app: 'WorkFlowEngine', type: 'automatic', variables: { incoming: { str: '$var.job.text' }, outgoing: { uppercaseString: '$var.job.result' } } } },
    transitions: { workflow_start: { t1: { type: 'standard', state: 'success' } }, t1: { workflow_end: { type: 'standard', state: 'success' } } },
    last_updated: now,
  };
}

function round(layout: 'text' | 'jsonb') {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-layouts-'));
  const file = path.join(dir, 'x.sqlite');
  const db = new (sqlite().DatabaseSync)(file);
  try {
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA temp_store = MEMORY');
    db.exec('CREATE TABLE j (_id TEXT NOT NULL UNIQUE, doc TEXT NOT NULL)');
    const x = (field: string) => `json_extract(doc, '$.${field}')`;
    INDEXES.forEach((fields, n) => db.exec(`CREATE INDEX i${n} ON j (${fields.map(x).join(', ')})`));
    db.function('apply_set', (text, set) => JSON.stringify(Object.assign(JSON.parse(String(text)) as object, JSON.parse(String(set)))));
    const jb = layout === 'jsonb';
    const insert = db.prepare(`INSERT INTO j (_id, doc) VALUES (?, ${jb ? 'jsonb(?)' : '?'})`);
    const update = db.prepare(`UPDATE j SET doc = ${jb ? 'jsonb(apply_set(json(doc), ?))' : 'apply_set(doc, ?)'} WHERE rowid = (SELECT rowid FROM j WHERE _id = ? AND ${x('status')} = 'running' LIMIT 1)`);
    const read = db.prepare(`SELECT ${jb ? 'json(doc)' : 'doc'} AS doc FROM j WHERE _id = ?`);
    const time = { insert: 0, update: 0, read: 0 };
    const timed = (what: keyof typeof time, fn: () => unknown) => {
      const began = performance.now();
      db.exec('BEGIN IMMEDIATE');
      fn();
      db.exec('COMMIT');
      time[what] += performance.now() - began;
    };
    for (let i = 0; i < DOCS; i++) {
      timed('insert', () => insert.run(`job${i}`, JSON.stringify(jobDoc(i, Date.now()))));
      if (i < 10) continue;
      const id = `job${i - 10}`;
      timed('update', () => update.run(JSON.stringify({ status: 'complete', last_updated: Date.now(), variables: { text: 'x', result: 'X' } }), id));
      timed('read', () => JSON.parse(String(read.get(id)?.doc)));
    }
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    const us = (ms: number, n: number) => Math.round((ms / n) * 10_000) / 10;
    return { insertUs: us(time.insert, DOCS), updateUs: us(time.update, DOCS - 10), readUs: us(time.read, DOCS - 10), bytesPerDoc: Math.round(statSync(file).size / DOCS), load: Math.round((os.loadavg()[0] ?? 0) * 100) / 100 };
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

export async function benchStoreLayouts() {
  const rounds: (ReturnType<typeof round> & { layout: string; round: number })[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const layout of r % 2 ? (['jsonb', 'text'] as const) : (['text', 'jsonb'] as const)) {
      const result = { layout, round: r + 1, ...round(layout) };
      rounds.push(result);
      console.log(`round ${result.round} ${layout}: insert ${result.insertUs} us, update ${result.updateUs} us, read ${result.readUs} us (each with its commit), ${result.bytesPerDoc} B per document; load ${result.load}`);
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  const of = (layout: string, key: 'insertUs' | 'updateUs' | 'readUs' | 'bytesPerDoc') => median(rounds.filter((r) => r.layout === layout).map((r) => r[key]));
  return (['text', 'jsonb'] as const).map((layout) => ({ layout, insertUs: of(layout, 'insertUs'), updateUs: of(layout, 'updateUs'), readUs: of(layout, 'readUs'), bytesPerDoc: of(layout, 'bytesPerDoc'), rounds: ROUNDS }));
}
