// Raw node:sqlite doing the engine's own write pattern (issue 45): the reference the engine's
// task rate is compared to as `rawSamePatternTasksPerSecond`, so the ratio compares equal work.
//
// What "the same" means, and how it is kept true as the engine changes: the engine first runs
// one job of the workflow on its embedded store, and this reference takes from that file
//   - the tables, indexes and row-count triggers of `jobs`, `tasks` and `_counts`, as created
//     (the column-filling triggers are left out: raw code passes the columns' values itself);
//   - the stored job document and task documents (their sizes and shapes, the service's layout).
// The file's settings are the store's (page size, WAL, synchronous, secure_delete). Then, for each
// job, the statements the engine runs (counted by instrumenting it: see docs/performance.md). The
// bench's tasks are WorkFlowEngine built-ins, which the engine runs in the write that queues them
// (core/engine/jobs/in-write.ts), so a job is one transaction of its start: one task INSERT per
// task, the record as it ended, and one job INSERT, the job as it ended (its variables, its end);
// each job commits alone, as each of the engine's starts does when its caller waits for the answer.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { ObjectId } from 'bson';
import { Engine } from '../core/engine/index';
import { openEmbeddedStore } from '../core/store/embedded/store';
import { ID_COLUMN } from '../core/store/embedded/identity';
import { stepsWorkflow } from '../test/store/support/steps';
import { createEngineIndexes } from './engine-support';
import { folderBytes, tempDir, yieldToWorkers, type Work } from './queues-peers';

/** The engine's tables and documents for a workflow of `steps` tasks, read from a file it wrote. */
export interface EnginePattern {
  schema: string[];
  jobDoc: Record<string, unknown>;
  taskDocs: Record<string, unknown>[];
  jobColumns: string[];
  taskColumns: string[];
  pageSize: number;
}

const patterns = new Map<number, Promise<EnginePattern>>();

/** The pattern of `steps`-task jobs, read once per process. */
export function enginePattern(steps: number): Promise<EnginePattern> {
  let found = patterns.get(steps);
  if (!found) patterns.set(steps, (found = readPattern(steps)));
  return found;
}

async function readPattern(steps: number): Promise<EnginePattern> {
  const dir = await tempDir();
  try {
    const store = await openEmbeddedStore(dir, { file: 'engine.sqlite' });
    await createEngineIndexes(store);
    await store.collection('workflows').insertOne(stepsWorkflow('bench', steps));
    const engine = new Engine({ store, serverId: 'bench', serverName: 'bench', processTasksOnStart: true, worker: { idleMs: 5 } });
    await engine.open();
    const job = await engine.runner.start('bench', { variables: { text: 'job 0' } });
    const deadline = Date.now() + 30_000;
    while ((await store.collection('jobs').count({ _id: job._id, status: 'complete' })) === 0) {
      if (Date.now() > deadline) throw new Error('bench: the pattern job did not complete within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await engine.close();
    await store.close();
    const db = new DatabaseSync(path.join(dir, 'engine.sqlite'), { readOnly: true });
    try {
      const wanted = (name: string) => name === '_counts' || /^"?c:(jobs|tasks)"?$/.test(name);
      const schema = db
        .prepare(`SELECT type, name, tbl_name AS tbl, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type = 'table' DESC, rowid`)
        .all()
        .filter((r) => wanted(String(r.tbl)) && !/^k[+~]:/.test(String(r.name)))
        .map((r) => String(r.sql));
      const columns = (table: string) =>
        db
          .prepare(`SELECT name FROM pragma_table_info(?)`)
          .all(table)
          .map((r) => String(r.name))
          .filter((name) => name.startsWith('k:') || name.startsWith('v:'));
      const doc = (row: Record<string, unknown> | undefined) => JSON.parse(String(row?.doc)) as Record<string, unknown>;
      return {
        schema,
        jobDoc: doc(db.prepare('SELECT doc FROM "c:jobs" LIMIT 1').get()),
        taskDocs: db.prepare('SELECT doc FROM "c:tasks" ORDER BY rowid').all().map(doc),
        jobColumns: columns('c:jobs'),
        taskColumns: columns('c:tasks'),
        pageSize: Number(db.prepare('PRAGMA page_size').get()?.page_size),
      };
    } finally {
      db.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The value a `k:<field>` column holds for a document (what the engine's json_extract gives). */
function columnValue(doc: Record<string, unknown>, column: string): string | number | null {
  if (column.startsWith('v:')) return 0;
  let node: unknown = doc;
  for (const part of column.slice(2).split('.')) node = node !== null && typeof node === 'object' ? Reflect.get(node, part) : undefined;
  if (node === undefined || node === null) return null;
  if (typeof node === 'boolean') return node ? 1 : 0;
  if (typeof node === 'number' || typeof node === 'string') return node;
  return JSON.stringify(node);
}

/** Raw node:sqlite, the engine's rows and statements for jobs of `steps` tasks, for at least `seconds`. */
export async function rawSamePatternRound(seconds: number, steps: number): Promise<Work & { tasks: number }> {
  const pattern = await enginePattern(steps);
  const dir = await tempDir();
  const db = new DatabaseSync(path.join(dir, 'raw.sqlite'));
  try {
    // The embedded store's file settings (connection.ts): its page size, WAL, synchronous=NORMAL,
    // deleted content zeroed, the statement journal in memory.
    db.exec(`PRAGMA page_size = ${pattern.pageSize}`);
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL');
    db.exec('PRAGMA secure_delete = ON');
    db.exec('PRAGMA temp_store = MEMORY');
    for (const sql of pattern.schema) db.exec(sql);
    db.exec(`INSERT OR IGNORE INTO _counts (collection, n) VALUES ('jobs', 0), ('tasks', 0)`);
    const quote = (column: string) => `"${column}"`;
    // A table of the engine's file reads its _id from the document (identity.ts's ID_COLUMN): ?1 then bound, not written.
    const insert = (table: string, columns: string[]) => {
      const id = pattern.schema.some((sql) => sql.includes(`"${table}" (${ID_COLUMN}`)) ? [] : ['_id'];
      const values = [...id.map(() => '?1'), '?2', ...columns.map((_, i) => `?${i + 3}`)];
      return db.prepare(`INSERT INTO "${table}" (${[...id, 'doc', ...columns.map(quote)].join(', ')}) VALUES (${values.join(', ')})`);
    };
    const insertJob = insert('c:jobs', pattern.jobColumns);
    const insertTask = insert('c:tasks', pattern.taskColumns);
    const begin = db.prepare('BEGIN IMMEDIATE');
    const commit = db.prepare('COMMIT');
    // The engine's documents as text, its job's id (an ObjectId, in every record id and reference) a placeholder.
    const engineId = String(pattern.jobDoc._id);
    const jobText = JSON.stringify(pattern.jobDoc).replaceAll(engineId, '\u0000');
    const taskTexts = pattern.taskDocs.map((doc) => JSON.stringify(doc).replaceAll(engineId, '\u0000'));
    let jobs = 0;
    let tasks = 0;
    /** One job as the engine writes it: its records as they ended, then the job, in one transaction. */
    const runJob = (text: string) => {
      const id = new ObjectId().toHexString();
      jobs++;
      const now = Date.now();
      begin.run();
      for (let index = 0; index < steps; index++) {
        const doc = JSON.parse(taskTexts[index % taskTexts.length]!.replaceAll('\u0000', id)) as Record<string, unknown>;
        Object.assign(doc, { queuedAt: now, runAfter: now, incoming: { ...(doc.incoming as object), str: text }, outgoing: { uppercaseString: text.toUpperCase() }, metrics: { ...(doc.metrics as object), claimed_at: now, start_time: now, end_time: now } });
        insertTask.run(String(doc._id), JSON.stringify(doc), ...pattern.taskColumns.map((c) => columnValue(doc, c)));
        tasks++;
      }
      const job = JSON.parse(jobText.replaceAll('\u0000', id)) as Record<string, unknown>;
      Object.assign(job, { variables: { ...(job.variables as object), text, result: text.toUpperCase() }, metrics: { ...(job.metrics as object), start_time: now, end_time: now }, last_updated: now });
      insertJob.run(id, JSON.stringify(job), ...pattern.jobColumns.map((c) => columnValue(job, c)));
      commit.run();
    };
    const started = performance.now();
    while (performance.now() - started < seconds * 1000) {
      runJob(`job ${jobs}`);
      await yieldToWorkers();
    }
    const elapsedMs = performance.now() - started;
    db.close();
    return { items: jobs, tasks, elapsedMs, bytesPerItem: (await folderBytes(dir)) / jobs };
  } finally {
    if (db.isOpen) db.close();
    await rm(dir, { recursive: true, force: true });
  }
}
