// The levers of issue 45 weighed on the engine's own runs (`npm run bench -- levers`): each is
// applied to the store for its rounds only (a patch of this process's store code, undone after),
// beside the store as it is, in alternating rounds (the order turned each round); the ratio to
// the unchanged store is taken within a round and its median reported, with every round's load.
// A lever is measured here before it is built, so what does not pay is published, not shipped:
//   - array checks asked at every update: each filter's compile asked whether any document holds an
//     array on its fields (one SELECT per update), as the store did before it kept the answers inside
//     write transactions (array-free.ts);
//   - array checks asked at a claim (as before): the answers kept inside write transactions only, a
//     statement of its own (the worker's claim) asking again each time (array-free.ts keeps them out of one too);
//   - inline checkpoints: no checkpoint thread, SQLite's own checkpoint every 1,000 pages on the
//     committing thread (the store's schedule: a thread asked every 100 ms, or 20 ms under writes);
//   - no secure_delete: the cost of zeroing deleted content (a security setting, never dropped);
//   - the workflow copy in every job document (as before): a job's tasks and transitions written
//     into its own document, as the store did before it kept such values once (shared-values.ts);
//   - one claim per task (as before): the worker's claim loop takes one task per store call (one
//     write and commit each on the embedded store), not the min(room, 8) it has room for (claimMany);
//   - the _id stored beside the document (as before): each new table with an `_id` column of its own,
//     as the store made them before reading it from the document (identity.ts's ID_COLUMN);
//   - indexes built descending (as before): a key's descending fields built DESC, as the store built
//     them before building every index ascending (index-specs.ts's createIndexSql);
//   - a start's workflow copy encoded at every write (as before): the shared values' text made from
//     the job's tasks and transitions at each insert, not once per frozen workflow (shared-values.ts textOf),
//     and the document written with its references' toJSON (SharedRef), not their text;
//   - a job read at its task's run and again at its end (as before): a queued task's end reads its job
//     again though unchanged since its run read it, the records sorted by the store (a probe statement
//     first), a job's workflow copy kept for 2,000 jobs only, an exclusion of it made by json_remove;
//   - the job written at its start (as before): a job's document inserted before its first advance
//     and updated by each write after, not written once after it (executor.ts `started`);
//   - tasks run by the worker, the job written at its start (as before): the engine before in-write.ts,
//     each built-in task run by the worker once its record's write commits, its end a write of its own.
import os from 'node:os';
import { Layout } from '../core/store/embedded/columns';
import { SqliteDatabase } from '../core/store/embedded/database';
import { SharedValues } from '../core/store/embedded/shared-values';
import { encodeDoc, SharedRef } from '../core/store/embedded/codec';
import { TaskQueue } from '../core/engine/queue/queue';
import { EmbeddedCollection } from '../core/store/embedded/collection';
import { createIndexSql, sqlIndexName, tableName } from '../core/store/embedded/index-specs';
import type { IndexSpec } from '../core/store/port';
import { HeldState } from '../core/engine/jobs/held';
import { JobReads } from '../core/engine/jobs/reads';
import { RecentJobs } from '../core/engine/jobs/recent';
import { makeRoom } from '../core/values/bounded-map';
import { JobExecutor } from '../core/engine/jobs/executor';
import type { AdvanceHandoff } from '../core/engine/jobs/held';
import type { JobDoc } from '../core/engine/jobs/types';
import { TasksInWrite } from '../core/engine/jobs/in-write';
import { engineRound } from './engine-round';
import { round } from './engine-support';

interface Lever {
  name: string;
  /** Applies the lever; returns what undoes it. */
  apply(): () => void;
}

/** Replaces a method of a prototype (private ones too) until the returned function puts it back. */
function patch(proto: object, method: string, make: (original: (...args: unknown[]) => unknown) => (this: never, ...args: unknown[]) => unknown): () => void {
  const original: unknown = Reflect.get(proto, method);
  if (typeof original !== 'function') throw new Error(`bench: ${method} is not a method to patch`);
  Reflect.set(proto, method, make(original as (...args: unknown[]) => unknown));
  return () => Reflect.set(proto, method, original);
}

export const LEVERS: Lever[] = [
  {
    // The store keeps these answers inside write transactions (array-free.ts): this lever undoes it.
    name: 'array checks asked at every update (as before)',
    apply: () =>
      patch(Layout.prototype, 'arrayFree', () =>
        function (this: never, fields: unknown) {
          return Reflect.apply(Reflect.get(Layout.prototype, 'askArrayFree') as (fields: unknown) => boolean[], this, [fields]);
        },
      ),
  },
  {
    // The store keeps these answers out of a write transaction too, at PRAGMA data_version: this lever asks again out of one.
    name: 'array checks asked at a claim (as before)',
    apply: () =>
      patch(Layout.prototype, 'arrayFree', (original) =>
        function (this: never, fields: unknown) {
          const source: unknown = Reflect.get(this, 'source');
          const database: unknown = source && typeof source === 'object' ? Reflect.get(source, 'database') : undefined;
          const inWrite = database instanceof SqliteDatabase && database.writeVersion() !== undefined;
          return Reflect.apply(inWrite ? original : (Reflect.get(Layout.prototype, 'askArrayFree') as (fields: unknown) => boolean[]), this, [fields]);
        },
      ),
  },
  {
    name: 'inline checkpoints',
    apply: () => {
      const set = new WeakSet<object>();
      return patch(SqliteDatabase.prototype, 'checkpoint', () =>
        function (this: never) {
          const database = this as SqliteDatabase;
          if (set.has(database)) return;
          set.add(database);
          database.db.exec('PRAGMA wal_autocheckpoint = 1000');
        },
      );
    },
  },
  {
    name: 'no secure_delete',
    apply: () =>
      patch(SqliteDatabase.prototype, 'ensureTable', (original) =>
        function (this: never, ...args: unknown[]) {
          (this as SqliteDatabase).db.exec('PRAGMA secure_delete = OFF');
          return Reflect.apply(original, this, args);
        },
      ),
  },
  {
    // The store keeps a job's workflow copy once per value (shared-values.ts): this lever writes it into every document again.
    name: 'the workflow copy in every job document (as before)',
    apply: () =>
      patch(SharedValues.prototype, 'encode', () =>
        function (this: never, _collection: unknown, doc: unknown) {
          return encodeDoc(doc);
        },
      ),
  },
  {
    // The worker claims the tasks it has room for in one store call (queue.ts claimMany): this lever claims them one by one again.
    name: 'one claim per task (as before)',
    apply: () =>
      patch(TaskQueue.prototype, 'claimMany', () =>
        function (this: never, workerId: unknown, leaseMs: unknown, _n: unknown, now: unknown) {
          const queue = this as TaskQueue;
          return queue.claim(String(workerId), Number(leaseMs), typeof now === 'number' ? now : undefined).then((record) => (record ? [record] : []));
        },
      ),
  },
  {
    // A new table reads its _id from the document (identity.ts's ID_COLUMN): this lever makes it as before, the _id a column of its own.
    name: 'the _id stored beside the document (as before)',
    apply: () =>
      patch(SqliteDatabase.prototype, 'ensureTable', (original) =>
        function (this: never, collection: unknown, table: unknown) {
          const database = this as SqliteDatabase;
          database.writeSync(() => database.db.exec(`CREATE TABLE IF NOT EXISTS ${String(table)} (_id TEXT NOT NULL UNIQUE, doc TEXT NOT NULL, "v:0")`));
          return Reflect.apply(original, this, [collection, table]);
        },
      ),
  },
  {
    // Indexes are built ascending whatever the key's directions (index-specs.ts): this lever builds each one again as before.
    name: 'indexes built descending (as before)',
    apply: () =>
      patch(EmbeddedCollection.prototype, 'createIndex', (original) =>
        async function (this: never, spec: unknown) {
          await Reflect.apply(original, this, [spec]);
          const index = spec as IndexSpec;
          const collection = this as EmbeddedCollection;
          const database = Reflect.get(collection, 'database') as SqliteDatabase;
          const table = tableName(collection.name);
          database.writeSync(() => {
            database.db.exec(`DROP INDEX IF EXISTS ${sqlIndexName(collection.name, index.name)}`);
            database.db.exec(createIndexSql(collection.name, index, database.layouts.get(database, table), true));
          });
        },
      ),
  },
  {
    // The store encodes a frozen workflow's tasks and transitions once (shared-values.ts textOf) and writes the references
    // as text: this lever encodes them at every write again, and writes the references through their toJSON.
    name: "a start's workflow copy encoded at every write (as before)",
    apply: () => {
      const undo = patch(SharedValues.prototype, 'textOf', () =>
        function (this: never, value: unknown) {
          return encodeDoc(value);
        },
      );
      const undoEncode = patch(SharedValues.prototype, 'encode', (original) =>
        function (this: never, collection: unknown, doc: unknown) {
          const fields = (this as SharedValues).of(String(collection));
          const record = doc as Record<string, unknown>;
          if (!fields || [...fields].some((field) => typeof record[field] === 'string')) return Reflect.apply(original, this, [collection, doc]);
          const copy: Record<string, unknown> = { ...record };
          let refs = 0;
          for (const field of fields) {
            const value = record[field];
            if (value === null || typeof value !== 'object' || value instanceof Date || value instanceof SharedRef) continue;
            const text = encodeDoc(value);
            const key = text.length < 48 ? undefined : (Reflect.get(this, 'keyOf') as (text: string) => string | undefined).call(this, text);
            if (key === undefined) continue;
            copy[field] = new SharedRef(key);
            refs++;
          }
          return refs ? encodeDoc(copy, refs) : encodeDoc(doc);
        },
      );
      return () => (undoEncode(), undo());
    },
  },
  {
    // A queued job's run phase reads less (recent.ts, reads.ts, task-run.ts, shared-values.ts): this lever puts back each read as it was.
    name: 'a job read at its task\'s run and again at its end (as before)',
    apply: () => {
      const undo = [
        patch(HeldState.prototype, 'jobStamp', () => () => undefined),
        patch(JobReads.prototype, 'stored', () =>
          function (this: never, jobId: unknown) {
            return (this as JobReads).tasks.find({ jobId }, { sort: { queuedAt: 1 } });
          },
        ),
        patch(RecentJobs.prototype, 'remember', (original) =>
          function (this: never, job: unknown) {
            makeRoom(Reflect.get(this as object, 'kept') as Map<unknown, unknown>, 2000);
            return Reflect.apply(original, this, [job]);
          },
        ),
        patch(SharedValues.prototype, 'leavesOut', () => () => false),
      ];
      return () => undo.forEach((u) => u());
    },
  },
  {
    // A job whose start's unit is one transaction is written once, after its first advance (executor.ts started): this lever writes it first.
    name: 'the job written at its start (as before)',
    apply: () => writtenAtStart(),
  },
  {
    // The engine's built-ins run in the write that queues them (in-write.ts): this lever leaves every task to the worker, the job written first.
    name: 'tasks run by the worker, the job written at its start (as before)',
    apply: () => {
      const undo = [writtenAtStart(), patch(TasksInWrite.prototype, 'end', () => async () => undefined)];
      return () => undo.forEach((u) => u());
    },
  },
];

function writtenAtStart(): () => void {
  return patch(JobExecutor.prototype, 'started', () =>
    async function (this: never, job: unknown, handoff: unknown, write: unknown) {
      await (write as () => Promise<void>)();
      await (this as JobExecutor).run(job as JobDoc, [], { kind: 'started' }, handoff as AdvanceHandoff | undefined);
    },
  );
}

interface LeverRound {
  lever: string;
  round: number;
  oneTaskJobsPerSecond: number;
  cpuMsPerOneTaskJob: number;
  bytesPerOneTaskJob: number;
  tenTaskTasksPerSecond: number;
  loadAverage: number;
  failed?: string;
}

async function measure(seconds: number): Promise<Omit<LeverRound, 'lever' | 'round' | 'loadAverage'>> {
  const cpu = process.cpuUsage();
  const one = await engineRound(seconds, 1, 8);
  const used = process.cpuUsage(cpu);
  const ten = await engineRound(seconds, 10, 8);
  return {
    oneTaskJobsPerSecond: round(one.items / (one.elapsedMs / 1000)),
    cpuMsPerOneTaskJob: round((used.user + used.system) / 1000 / one.items, 3),
    bytesPerOneTaskJob: round(one.bytesPerItem),
    tenTaskTasksPerSecond: round(ten.tasks / (ten.elapsedMs / 1000)),
  };
}

export async function benchLevers(): Promise<object> {
  const argv = process.argv.slice(2);
  const at = argv.indexOf('--rounds');
  const rounds = at >= 0 ? Number(argv[at + 1]) : 3;
  const seconds = argv.includes('--seconds') ? Number(argv[argv.indexOf('--seconds') + 1]) : 3;
  // `--only <text>`: the levers whose name holds it, beside the store as it is.
  const only = argv.includes('--only') ? argv[argv.indexOf('--only') + 1] : undefined;
  const configs = [{ name: 'the store as it is', apply: () => () => undefined }, ...LEVERS.filter((lever) => !only || lever.name.includes(only))];
  await measure(2);
  const rows: LeverRound[] = [];
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < configs.length; k++) {
      const config = configs[(r + k) % configs.length]!;
      const undo = config.apply();
      try {
        const row = { lever: config.name, round: r + 1, ...(await measure(seconds)), loadAverage: round(os.loadavg()[0] ?? 0, 2) };
        rows.push(row);
        console.log(`round ${row.round} ${row.lever}: one-task jobs ${row.oneTaskJobsPerSecond}/s (${row.cpuMsPerOneTaskJob} CPU ms, ${row.bytesPerOneTaskJob} B each), 10-task jobs ${row.tenTaskTasksPerSecond} tasks/s; load ${row.loadAverage}`);
      } catch (error) {
        const failed = error instanceof Error ? error.message : String(error);
        rows.push({ lever: config.name, round: r + 1, oneTaskJobsPerSecond: Number.NaN, cpuMsPerOneTaskJob: Number.NaN, bytesPerOneTaskJob: Number.NaN, tenTaskTasksPerSecond: Number.NaN, loadAverage: round(os.loadavg()[0] ?? 0, 2), failed });
        console.log(`round ${r + 1} ${config.name}: failed (${failed})`);
      } finally {
        undo();
      }
    }
  }
  const median = (values: number[]) => {
    const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
    return sorted.length ? sorted[Math.floor(sorted.length / 2)]! : Number.NaN;
  };
  const within = (lever: string, pick: (r: LeverRound) => number) =>
    median(rows.filter((r) => r.lever === lever).map((r) => pick(r) / pick(rows.find((b) => b.lever === configs[0]!.name && b.round === r.round)!)));
  return {
    levers: configs.map(({ name }) => ({
      lever: name,
      oneTaskJobsPerSecond: median(rows.filter((r) => r.lever === name).map((r) => r.oneTaskJobsPerSecond)),
      cpuMsPerOneTaskJob: median(rows.filter((r) => r.lever === name).map((r) => r.cpuMsPerOneTaskJob)),
      bytesPerOneTaskJob: median(rows.filter((r) => r.lever === name).map((r) => r.bytesPerOneTaskJob)),
      tenTaskTasksPerSecond: median(rows.filter((r) => r.lever === name).map((r) => r.tenTaskTasksPerSecond)),
      oneTaskRatioToStore: round(within(name, (r) => r.oneTaskJobsPerSecond), 3),
      tenTaskRatioToStore: round(within(name, (r) => r.tenTaskTasksPerSecond), 3),
      cpuRatioToStore: round(within(name, (r) => r.cpuMsPerOneTaskJob), 3),
    })),
    rounds: rows,
    method: `${rounds} rounds of ${seconds} s per workload, each configuration once per round (order turned), one-task jobs then 10-task jobs (8 at once, enqueue + run) on a fresh file each; ratios to the store as it is taken within a round, the median reported`,
  };
}
