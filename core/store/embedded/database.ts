// One SQLite database file, shared by every Store this process opens on it (one connection, one statement
// cache) and by other console processes opening the same file: WAL mode lets readers go on while one
// writer writes, and a writer that finds the file locked by another process waits for it on the event loop (busy.ts).
import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import { StoreError } from '../errors';
import type { DatabaseSync, StatementSync } from './sqlite';
import { describeProblems, openConnection } from './connection';
import { WriteHealth, type WriteHealthLog } from './write-health';
import { UpdateFunction } from './update-function';
import { IntegrityChecks } from './integrity';
import { forgetFile, requestCheckpoint } from './checkpoint';
import { ChangeCounts } from './changes';
import { FilterCompiler } from './sql';
import { Layouts } from './columns';
import { BUSY_TIMEOUT_MS, isBusy, pauseForWriter, stayedLocked } from './busy';
import { createTable, HighWater } from './identity';
import { SharedValues } from './shared-values';

const STATEMENT_CACHE = 500;
/** The most transactions one commit carries (group commit); the rest wait for the next. */
const GROUP_LIMIT = 32;
/** How often the checkpoint thread is asked to copy the WAL into the file, when this connection wrote. */
const CHECKPOINT_MS = 100;
/** Under steady writes, a commit asks again this often: the checkpoint thread keeps the WAL below the bound at which a commit checkpoints here (stalls of ms). */
const CHECKPOINT_BUSY_MS = 20;
/** The write that tells a failing file has recovered (write-health.ts). */
const PROBE_SQL = `INSERT OR REPLACE INTO _meta (key, value) VALUES ('write-probe', ?)`;

/** A transaction waiting for its group (group commit). */
interface Member {
  fn: () => Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export class SqliteDatabase {
  users = 0;
  readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  private readonly tables = new Set<string>();
  /** PRAGMA integrity_check in the background: the last result and the one running. */
  readonly integrity: IntegrityChecks;
  /** Whether the file takes writes now (read-only after a failed check, or failing writes). */
  readonly health: WriteHealth;
  /** Writes counted by a field of the tracked collections (changes.ts). */
  readonly changes = new ChangeCounts();
  /** Values kept once (shared-values.ts); SQL reads a document whole as mongo_resolve(doc). */
  readonly shared: SharedValues;
  /** SQL's mongo_update(doc, update): applies an update to each matched document, counting those it changed. */
  readonly updates: UpdateFunction;
  /** Filters compiled to SQL, the flat ones kept by shape. */
  readonly filters = new FilterCompiler();
  /** The columns of each table (columns.ts). */
  readonly layouts = new Layouts();
  /** The store's high-water and generation in the file, raised with the writes (identity.ts). */
  readonly highWater = new HighWater();
  /** Transactions open on the connection (a write inside one joins it). */
  private depth = 0;
  /** Milliseconds this connection's transactions held the file's write lock (BEGIN IMMEDIATE to COMMIT): what no second writer can use. */
  lockHeldMs = 0;

  constructor(
    readonly file: string,
    /** How long a write waits for another process's write before failing. */
    readonly busyTimeoutMs = BUSY_TIMEOUT_MS,
    /** Where a failing write is said (once per cause and minute). */
    log?: WriteHealthLog,
    /** The collections whose fields are kept once (shared-values.ts's SHARED_FIELDS unless given). */
    sharedFields?: Readonly<Record<string, readonly string[]>>,
  ) {
    const opened = openConnection(file, busyTimeoutMs);
    this.db = opened.db;
    this.shared = new SharedValues(this.db, sharedFields);
    this.updates = new UpdateFunction(this.changes, this.shared);
    this.integrity = new IntegrityChecks(file);
    this.health = new WriteHealth(file, log, () => this.writeSync(() => this.statement(PROBE_SQL).run(String(Date.now()))));
    if (opened.problems.length) this.health.setReadOnly(describeProblems(opened.problems));
    this.db.function('mongo_update', { deterministic: false, directOnly: true }, (text, update) => this.updates.apply(String(text), update));
    this.db.function('mongo_apply', { deterministic: false, directOnly: true }, (text, update) => this.updates.again(String(text), update));
    this.db.function('mongo_resolve', { deterministic: true, directOnly: true }, (text) => this.shared.resolve(String(text)));
    // A file opened read-only is not written, so it has nothing to checkpoint.
    this.checkpoints = opened.problems.length ? undefined : setInterval(() => this.checkpoint(), CHECKPOINT_MS);
    this.checkpoints?.unref();
  }

  private readonly checkpoints: NodeJS.Timeout | undefined;
  private changesSeen = 0;
  private checkpointAskedAt = 0;

  /** Asks the checkpoint thread to copy the WAL when this connection changed rows since the last time. */
  private checkpoint() {
    const changes = Number(this.statement('SELECT total_changes() AS n').get()?.n);
    if (changes === this.changesSeen) return;
    this.changesSeen = changes;
    this.checkpointAskedAt = performance.now();
    // A write outside a transaction (one statement) was committed: the file takes writes.
    this.health.succeeded();
    requestCheckpoint(this.file);
  }

  /** Runs `fn` with SQLite's own (sleeping) wait for another writer: synchronous work at open (migration). */
  async withSleepingWait<T>(fn: () => Promise<T>): Promise<T> {
    this.db.exec(`PRAGMA busy_timeout = ${this.busyTimeoutMs}`);
    try {
      return await fn();
    } finally {
      this.db.exec('PRAGMA busy_timeout = 0');
    }
  }

  /**
   * Runs `fn` (synchronous statements: a read, one write statement, or a `writeSync`) once no transaction of
   * another caller is open (inside the caller's own, at once), and again while another process holds the
   * write lock, until the busy timeout: a write that finds the file locked has changed nothing.
   */
  async whenFree<T>(fn: () => T): Promise<T> {
    let since = 0;
    for (let attempt = 1; ; attempt++) {
      for (let wait = this.outside(); wait; wait = this.outside()) await wait;
      try {
        return fn();
      } catch (error) {
        if (!isBusy(error) || this.depth > 0) throw error;
        since ||= Date.now();
        if (!(await pauseForWriter(attempt, since, this.busyTimeoutMs))) throw error;
      }
    }
  }

  statement(sql: string): StatementSync {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      if (this.statements.size >= STATEMENT_CACHE) this.statements.delete(this.statements.keys().next().value!);
      this.statements.set(sql, s);
    }
    return s;
  }

  /**
   * Creates the collection's table at its first write from this process. Triggers keep its document count
   * in `_counts`, so an unfiltered count (the Jobs list's total) reads one row, not an index of every document.
   */
  ensureTable(collection: string, table: string) {
    if (this.tables.has(collection)) return;
    const name = table.slice(1, -1);
    this.writeSync(() => {
      createTable(this.db, table);
      this.db.exec(`CREATE TRIGGER IF NOT EXISTS "n+:${name}" AFTER INSERT ON ${table} BEGIN UPDATE _counts SET n = n + 1 WHERE collection = '${collection}'; END`);
      this.db.exec(`CREATE TRIGGER IF NOT EXISTS "n-:${name}" AFTER DELETE ON ${table} BEGIN UPDATE _counts SET n = n - 1 WHERE collection = '${collection}'; END`);
      this.db.prepare(`INSERT OR IGNORE INTO _counts (collection, n) SELECT ?, count(*) FROM ${table}`).run(collection);
    });
    this.tables.add(collection);
  }

  /** Tables (and columns) created by a transaction that rolled back are gone with it. */
  private forgetTables() {
    this.tables.clear();
    this.layouts.forget();
    this.shared.forget();
  }

  /** Damage found at run time: nothing is written any more (query-only), the store reads read-only and red. */
  markDamaged(reason: string) {
    this.db.exec('PRAGMA query_only = ON');
    this.health.setReadOnly(`damage found while reading: ${reason}`);
  }

  /** PRAGMA data_version as read in the open write transaction, and as read last (`seen`). */
  private dataVersion: number | undefined;
  private seenVersion: number | undefined;

  /** A version of the documents of `collection` whose tracked field equals `value`: it moves when this connection writes one of them, or another connection commits anything (`before`: port.ts). */
  changeVersion(collection: string, value: string, before = false): string | undefined {
    const local = this.changes.local(collection, value);
    return local === undefined ? undefined : `${this.writeVersion() ?? ((before && this.seenVersion) || this.readVersion())}.${local}`;
  }

  /** PRAGMA data_version read now (it moves when another connection commits). */
  readVersion = () => (this.seenVersion = Number(this.statement('PRAGMA data_version').get()?.data_version));
  /** PRAGMA data_version in a write transaction (read once: no other connection commits meanwhile); undefined outside one. */
  writeVersion(): number | undefined {
    return this.depth === 0 ? undefined : (this.dataVersion ??= this.readVersion());
  }

  /** Runs synchronous statements as one write transaction (BEGIN IMMEDIATE takes the write lock at once, so two processes never deadlock upgrading a read). */
  writeSync<T>(fn: () => T): T {
    if (this.depth > 0) return fn();
    const refused = this.health.refusal();
    if (refused) throw refused;
    this.db.exec('BEGIN IMMEDIATE');
    const began = performance.now();
    this.dataVersion = undefined;
    this.depth++;
    try {
      const result = fn();
      this.db.exec('COMMIT');
      this.health.succeeded();
      return result;
    } catch (error) {
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      this.forgetTables();
      throw this.health.failed(error);
    } finally {
      this.depth--;
      this.lockHeldMs += performance.now() - began;
    }
  }

  /** The asynchronous transaction open on this connection, settled when it ends. */
  private open: Promise<void> | undefined;
  /** Which async context the open transaction belongs to: its calls go straight in. */
  private readonly context = new AsyncLocalStorage<Promise<void>>();

  /**
   * Undefined when the caller may run its statements now (no asynchronous transaction is open, or it is
   * inside it); otherwise a promise to wait for before asking again. Callers loop: `for (let w = db.outside();
   * w; w = db.outside()) await w;` then run their statements with no await in between.
   */
  outside(): Promise<void> | undefined {
    if (!this.open || this.context.getStore() === this.open) return undefined;
    return this.open;
  }

  /** Transactions asked for while one is open: the open one runs them before it commits (group commit). */
  private readonly queued: Member[] = [];

  /**
   * An asynchronous transaction: the store calls `fn` makes (through any handle, in its async context) go
   * into it, and every other call of this process waits until it commits or rolls back. One inside another joins the outer one.
   *
   * Group commit: a transaction begins on the next turn of the event loop, and those asked for until
   * then (tasks ending side by side), or while it runs, run after it, one at a time, each in a savepoint
   * of the same SQLite transaction (one that fails is rolled back alone), and commit together; each caller
   * is answered once that commit is done. A commit writes every page it changed to the WAL, and tasks
   * ending side by side share most of theirs (the indexes' last pages). The write lock is held only
   * while they run: other console processes on the file get their turn.
   */
  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    if (this.open && this.context.getStore() === this.open) return fn();
    return new Promise<T>((resolve, reject) => {
      this.queued.push({ fn, resolve, reject });
      this.scheduleGroup();
    });
  }

  /** A group is due on the next turn of the event loop (one at a time). */
  private groupDue = false;

  private scheduleGroup() {
    if (this.groupDue || this.open || this.groupStarting) return;
    this.groupDue = true;
    setImmediate(() => {
      this.groupDue = false;
      void this.runGroup();
    });
  }

  /** A group is starting: it may wait for another process's write, and transactions asked for meanwhile join it. */
  private groupStarting = false;

  /** BEGIN IMMEDIATE for a group and its `open` promise, set together (no other call may run between them). */
  private beginGroup(): (() => void) | undefined {
    if (this.open || this.queued.length === 0) return undefined;
    const refused = this.health.refusal();
    if (refused) throw refused;
    this.statement('BEGIN IMMEDIATE').run();
    let release!: () => void;
    this.open = new Promise<void>((resolve) => (release = resolve));
    return release;
  }

  private async runGroup(): Promise<void> {
    let release: (() => void) | undefined;
    this.groupStarting = true;
    try {
      // Plain calls waiting for the last group go first (a stream of transactions does not starve
      // them); while another process writes, the group waits on the event loop (whenFree).
      release = await this.whenFree(() => this.beginGroup());
    } catch (error) {
      // The file stayed locked by another process (or cannot be written): every transaction waiting fails with the cause.
      const failed = isBusy(error) ? new StoreError('failed', stayedLocked(this.file, this.busyTimeoutMs, error)) : this.health.failed(error);
      for (const member of this.queued.splice(0)) member.reject(failed);
      return;
    } finally {
      this.groupStarting = false;
    }
    if (!release) return;
    const open = this.open!;
    const began = performance.now();
    this.dataVersion = undefined;
    this.depth++;
    const done: { member: Member; result: unknown }[] = [];
    let rolledBack = false;
    try {
      for (let n = 0; n < GROUP_LIMIT && !rolledBack; n++) {
        // Those about to ask (tasks ending in this turn of the event loop) join before the commit.
        const member = this.queued.shift();
        if (!member) break;
        // The first needs no savepoint: failing, it rolls back the transaction (only its writes; the rest wait for the next group).
        const guarded = n > 0;
        if (guarded) this.statement('SAVEPOINT member').run();
        try {
          const result = await this.context.run(open, member.fn);
          if (guarded) this.statement('RELEASE member').run();
          done.push({ member, result });
        } catch (error) {
          member.reject(error);
          this.forgetTables();
          rolledBack = !guarded;
          // A failure SQLite ended the transaction for (a full disk) leaves nothing to roll back.
          for (const sql of guarded ? ['ROLLBACK TO member', 'RELEASE member'] : this.db.isTransaction ? ['ROLLBACK'] : []) this.statement(sql).run();
        }
      }
      if (!rolledBack) {
        this.highWater.due(this.db);
        this.statement('COMMIT').run();
        this.health.succeeded();
      }
      if (this.checkpoints && performance.now() - this.checkpointAskedAt >= CHECKPOINT_BUSY_MS) this.checkpoint();
      for (const { member, result } of done) member.resolve(result);
    } catch (error) {
      // The commit (or a savepoint statement) failed: nothing of the group was written.
      if (this.db.isOpen && this.db.isTransaction) this.db.exec('ROLLBACK');
      this.forgetTables();
      const failed = this.health.failed(error);
      for (const { member } of done) member.reject(failed);
    } finally {
      this.depth--;
      this.lockHeldMs += performance.now() - began;
      this.open = undefined;
      release();
      // Those past the limit: a new group, once the plain calls released above had their turn.
      if (this.queued.length) this.scheduleGroup();
    }
  }

  /** Closes the connection, after the integrity check's own connection is gone (so the WAL files go with the last one). */
  async close() {
    // A group of transactions open now commits first; any asked for later fail with the closed connection.
    while (this.open) await this.open;
    clearInterval(this.checkpoints);
    this.health.stopProbe();
    await this.integrity.stop();
    await forgetFile(this.file);
    this.statements.clear();
    this.db.close();
  }
}
