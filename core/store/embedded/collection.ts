// One collection of the embedded store: a table `"c:<name>"` of (_id, doc JSON, the indexed fields'
// columns: columns.ts) in the profile's SQLite file. Reads of a collection never written answer empty
// without creating it, so listCollections shows only collections that hold data. Every call is
// synchronous SQL; an update, and a claim, is one UPDATE statement, atomic across processes.
import { randomBytes } from 'node:crypto';
import type { Collection, Doc, Filter, FindOptions, IndexSpec, Sort, Update, UpdateResult } from '../port';
import { checkFindMany, StoreError } from '../errors';
import type { SqliteDatabase } from './database';
import { stayedLocked } from './busy';
import { documentCount, hasTable, indexSpecs } from './catalog';
import { checkNewSpec, createIndexSql, ID_INDEX, indexedFields, normalizeSpec, partialLiterals, sqlIndexName, tableName } from './index-specs';
import { compileSort, jsonPath, shiftNumbered, type Sql, type SqlParam } from './sql';
import { resolvingDoc } from './shared-values';
import { bySort, exactSort, impureSql, plainSort } from './sort';
import { addColumns, insertSql, isStaleLayout, uniqueIndexOf, updateSet, type Layout, type SetPlan } from './columns';
import { checkUpdate } from './update';
import { errorMessage } from '../../errors';

/** A 24-hex-digit id, like MongoDB's ObjectId string: time first, so ids sort by creation. */
export function newId(): string {
  return Math.floor(Date.now() / 1000).toString(16).padStart(8, '0') + randomBytes(8).toString('hex');
}

/**
 * The document column of a find: a projection that only excludes fields drops them in SQL
 * (json_remove), so the large fields a caller does not want are never parsed in JavaScript.
 */
function selectDoc(projection: FindOptions['projection']): string {
  const fields = Object.entries(projection ?? {});
  if (fields.length === 0 || fields.some(([, v]) => v)) return 'doc';
  return `json_remove(doc, ${fields.map(([field]) => `'${jsonPath(field).replaceAll("'", "''")}'`).join(', ')})`;
}

/** Which rows an UPDATE changes: every match, or the first (`limit`: the first `limit`, RETURNING them) by `sort`; `returning`: the document after it (of the first). */
interface Which {
  first: boolean;
  sort?: Sort;
  returning?: boolean;
  limit?: number;
}

/** The WHERE clauses an update's SET keeps its statements for (one per filter shape: a few). */
const WHERES_KEPT = 50;

const isNoTable = (error: unknown) => /no such table/.test(errorMessage(error));

export class EmbeddedCollection<T extends Doc = Doc> implements Collection<T> {
  private readonly table: string;

  constructor(
    readonly name: string,
    private readonly database: SqliteDatabase,
  ) {
    this.table = tableName(name);
  }

  private rewrite(error: unknown): Error {
    if (error instanceof StoreError) return error;
    const message = error instanceof Error ? error.message : String(error);
    // A write refused by a file opened query-only after a failed check: the 503 naming the check.
    const readOnly = this.database.health.refusal();
    if (readOnly && /readonly|read-only/i.test(message)) return readOnly;
    // Damage found while reading (a page SQLite cannot read, a document whose text is not JSON): the file
    // is read-only from now on, as after a failed check at open, and the store turns red.
    if (/malformed|corrupt/i.test(message) || error instanceof SyntaxError) {
      const what = error instanceof SyntaxError ? `holds a damaged document (${message})` : `cannot be read (${message})`;
      if (!readOnly) this.database.markDamaged(`collection ${this.name} ${what}`);
      return new StoreError('damaged', `collection ${this.name} in ${this.database.file} ${what}; ${this.database.health.refusal()?.message ?? ''}`.trim());
    }
    const failedWrite = this.database.health.failed(error);
    if (failedWrite instanceof StoreError) return failedWrite;
    if (/UNIQUE constraint failed/.test(message)) {
      const index =
        /index '(?:i:[^:]*:)?([^']*)'/.exec(message)?.[1] ?? uniqueIndexOf(message, this.name, indexSpecs(this.database, this.name)) ?? (/\._id/.test(message) ? '_id_' : 'unique index');
      return new StoreError('duplicate-key', `duplicate key in collection ${this.name}: the ${index} index already holds this value`);
    }
    if (/database is locked|SQLITE_BUSY/.test(message)) {
      return new StoreError('failed', `collection ${this.name}: ${stayedLocked(this.database.file, this.database.busyTimeoutMs, error)}`);
    }
    return new StoreError('failed', `collection ${this.name}: ${message}`);
  }

  /** Runs `fn` (synchronous SQL) once no transaction of another caller is open, and while another process writes, when it is done. */
  private async run<R>(fn: () => R): Promise<R> {
    try {
      return await this.database.whenFree(fn);
    } catch (error) {
      if (!isStaleLayout(error)) throw this.rewrite(error);
    }
    // Another connection added a column (and renamed the marker): the statement ran nothing; read the columns again.
    this.database.layouts.forget(this.table);
    try {
      return await this.database.whenFree(fn);
    } catch (error) {
      throw this.rewrite(error);
    }
  }

  /** The table's columns as this connection knows them. */
  private layout(): Layout {
    return this.database.shared.columns(this.name, this.database.layouts.get(this.database, this.table));
  }

  /** A read: a table that does not exist yet holds nothing. */
  private read<R>(fn: () => R, empty: R): Promise<R> {
    return this.run(() => {
      try {
        return fn();
      } catch (error) {
        if (isNoTable(error)) return empty;
        throw error;
      }
    });
  }

  private insertRows(docs: Doc[]): string[] {
    this.database.ensureTable(this.name, this.table);
    const layout = this.layout();
    const insert = this.database.statement(insertSql(this.table, layout));
    return docs.map((doc) => {
      const id = doc._id ?? newId();
      if (typeof id !== 'string') throw new StoreError('invalid', `the _id of a document in ${this.name} must be a string`);
      // _id first, as MongoDB stores it (and over an own `_id: undefined`: the table reads it from the text).
      insert.run(id, this.database.shared.encode(this.name, doc._id === undefined ? Object.assign({ _id: id }, doc, { _id: id }) : doc));
      layout.wrote(doc);
      this.database.changes.inserted(this.name, doc, id);
      return id;
    });
  }

  insertOne(doc: T): Promise<string> {
    return this.run(() => this.insertRows([doc])[0]!);
  }

  insertMany(docs: T[]): Promise<string[]> {
    return this.run(() => (docs.length ? this.database.writeSync(() => this.insertRows(docs)) : []));
  }

  /** A filter's WHERE; reading the whole document (mongo_resolve) where it names a path in a shared field (shared-values.ts). */
  private where(filter: Filter, layout: Layout): Sql {
    const where = this.database.filters.compile(filter, layout);
    return this.database.shared.inFilter(this.name, filter) ? { sql: resolvingDoc(where.sql), params: where.params } : where;
  }

  /** The SELECT a find runs. */
  private findSql(filter: Filter, options: FindOptions) {
    const layout = this.layout();
    const where = this.where(filter, layout);
    const select = this.database.shared.leavesOut(this.name, options.projection) ? 'doc' : selectDoc(options.projection);
    let sql = `SELECT ${select} AS doc FROM ${this.table} WHERE ${where.sql}${this.sortSql(options.sort, layout, where)}`;
    if (options.limit || options.skip) sql += ` LIMIT ${options.limit ? Math.floor(options.limit) : -1} OFFSET ${Math.floor(options.skip ?? 0)}`;
    return { sql, params: where.params };
  }

  /** A find's ORDER BY: SQLite's own (and its index) unless a document holds, at a sort field, a value SQLite orders otherwise than MongoDB (sort.ts). */
  private sortSql(sort: Sort | undefined, layout: Layout, where: { sql: string; params: SqlParam[] }): string {
    // A field no index leads: the probes read the rows the filter matches, not the whole collection.
    const sorted = Object.keys(sort ?? {}).filter((field) => field !== '_id');
    if (sorted.some((field) => this.database.shared.inShared(this.name, field))) return resolvingDoc(exactSort(sort!));
    const leading = sorted.length ? (layout.leadingIndexFields ??= new Set(indexSpecs(this.database, this.name).flatMap((spec) => (spec.partialFilterExpression ? [] : Object.keys(spec.key).slice(0, 1))))) : undefined;
    const scoped = sorted.some((field) => !leading?.has(field));
    const probe = sort && impureSql(sort, layout, this.table, scoped ? where.sql : undefined);
    if (!sort || !probe) return plainSort(sort, layout);
    if (probe === 'exact') return exactSort(sort);
    const row = this.database.statement(probe).get(...(scoped ? where.params : [])) as { mixed: number };
    return row.mixed ? exactSort(sort) : plainSort(sort, layout);
  }

  /** The UPDATE an update or a claim runs (one statement): `set` its SET (columns.ts's updateSet). */
  private updateSql(filter: Filter, which: Which, set: { sql: string; params: (SqlParam | bigint)[] }) {
    const layout = this.layout();
    const where = this.where(filter, layout);
    return { sql: this.updateText(layout, shiftNumbered(where.sql, set.params.length), which, set.sql), params: [...set.params, ...where.params] };
  }

  private updateText(layout: Layout, where: string, which: Which, set: string): string {
    const sorted = Object.keys(which.sort ?? {}).some((field) => this.database.shared.inShared(this.name, field));
    const order = sorted ? resolvingDoc(compileSort(which.sort, layout)) : compileSort(which.sort, layout);
    if (which.limit) return `UPDATE ${this.table} SET ${set} WHERE rowid IN (SELECT rowid FROM ${this.table} WHERE ${where}${order} LIMIT ${which.limit}) RETURNING doc`;
    const target = which.first ? `rowid = (SELECT rowid FROM ${this.table} WHERE ${where}${order} LIMIT 1)` : where;
    return `UPDATE ${this.table} SET ${set} WHERE ${target}`;
  }

  /** `updateText` made once per SET, WHERE (its `?N` shifted past the SET's `offset` parameters), sort and kind of update: the statement cache then finds it by a string whose hash V8 keeps. */
  private updateTextOf(layout: Layout, plan: SetPlan, { where, offset }: { where: string; offset: number }, which: Which): string {
    let kind = `${which.limit ? `n${which.limit}:` : which.first ? 'f' : 'm'}${offset}`;
    for (const field in which.sort) kind += `\u0000${field}\u0000${which.sort[field]}`;
    let byKind = plan.statements.get(where);
    if (!byKind) {
      if (plan.statements.size >= WHERES_KEPT) plan.statements.clear();
      plan.statements.set(where, (byKind = new Map()));
    }
    let sql = byKind.get(kind);
    if (sql === undefined) byKind.set(kind, (sql = this.updateText(layout, shiftNumbered(where, offset), which, plan.sql)));
    return sql;
  }

  /**
   * SQLite's EXPLAIN QUERY PLAN for a find, a count (`count`), or a findOneAndUpdate
   * (`claim`): one line per step, e.g. "SEARCH c:tasks USING INDEX i:tasks:status_1_leaseUntil_1 (k:status=? AND k:leaseUntil<?)";
   * with `sql`, the statement's text instead.
   */
  explain(filter: Filter, options: FindOptions & { claim?: boolean; count?: boolean; sql?: boolean } = {}): Promise<string[]> {
    return this.run(() => {
      const where = this.where(filter, this.layout());
      const q = options.claim
        ? this.updateSql(filter, { first: true, sort: options.sort, returning: true }, { sql: 'doc = mongo_update(doc, ?)', params: ['{}'] })
        : options.count
          ? { sql: `SELECT count(*) FROM ${this.table} WHERE ${where.sql}`, params: where.params }
          : this.findSql(filter, options);
      // `sql`: the statement itself, as prepared (a value a partial index names is a literal in it).
      if (options.sql) return [q.sql];
      const rows = this.database.db.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...q.params) as { detail: string }[];
      return rows.map((r) => r.detail);
    });
  }

  async findOne(filter: Filter, options: FindOptions = {}): Promise<T | null> {
    const [doc] = await this.find(filter, { ...options, limit: 1 });
    return doc ?? null;
  }

  find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    return this.read(() => {
      const { sql, params } = this.findSql(filter, options);
      const rows = this.database.statement(sql).all(...params) as { doc: string }[];
      return rows.map((r) => this.database.shared.read<T>(this.name, r.doc, options.projection));
    }, []);
  }

  count(filter: Filter = {}): Promise<number> {
    return this.read(() => {
      if (Object.keys(filter ?? {}).length === 0) return documentCount(this.database, this.name) ?? 0;
      const where = this.where(filter, this.layout());
      const row = this.database.statement(`SELECT count(*) AS n FROM ${this.table} WHERE ${where.sql}`).get(...where.params) as { n: number };
      return Number(row.n);
    }, 0);
  }

  /**
   * One UPDATE: every matching row (or the first by `sort` when `first`) gets the update. A claim's
   * document is the one mongo_update made for its row (update-function.ts), not read back by
   * RETURNING, which SQLite runs through a temporary table of the returned rows.
   */
  private updateRows(filter: Filter, update: Update, which: Which): { matched: number; modified: number; rows?: { doc: string }[] } {
    checkUpdate(update);
    const layout = this.layout();
    const set = updateSet(layout, update, this.database.updates.bind(update));
    const where = this.where(filter, layout);
    const params = set.params;
    const offset = params.length;
    for (const param of where.params) params.push(param);
    const statement = this.database.statement(this.updateTextOf(layout, set.plan, { where: where.sql, offset }, which));
    this.database.updates.modified = 0;
    this.database.updates.updating = this.name;
    this.database.updates.returning = which.returning ?? false;
    const result = which.limit ? { rows: statement.all(...params) as { doc: string }[] } : statement.run(...params);
    // After the statement: its filter's compile may have asked (and kept) an answer from before it.
    layout.wrote(undefined, update.$set);
    return { matched: 'rows' in result ? result.rows.length : Number(result.changes), modified: this.database.updates.modified, rows: 'rows' in result ? result.rows : undefined };
  }

  updateOne(filter: Filter, update: Update): Promise<UpdateResult> {
    return this.read(() => {
      const { matched, modified } = this.updateRows(filter, update, { first: true });
      return { matched, modified };
    }, { matched: 0, modified: 0 });
  }

  updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    return this.read(() => {
      const { matched, modified } = this.updateRows(filter, update, { first: false });
      return { matched, modified };
    }, { matched: 0, modified: 0 });
  }

  findOneAndUpdate(filter: Filter, update: Update, options: { sort?: Sort } = {}): Promise<T | null> {
    return this.read(() => {
      // One row at most (`first`): the last document mongo_update made is that row's.
      const { matched } = this.updateRows(filter, update, { first: true, sort: options.sort, returning: true });
      return matched ? this.database.updates.made<T>() : null;
    }, null);
  }

  /** One UPDATE of the first `limit` matches (RETURNING them: SQLite updates them in rowid order, answered here in `sort` order). */
  findManyAndUpdate(filter: Filter, update: Update, options: { sort?: Sort; limit: number }): Promise<T[]> {
    return this.read(() => {
      const which = { first: true, sort: options.sort, limit: checkFindMany(update, options) };
      const docs = (this.updateRows(filter, update, which).rows ?? []).map((r) => this.database.shared.read<T>(this.name, r.doc, undefined));
      return options.sort ? docs.sort(bySort(options.sort)) : docs;
    }, []);
  }

  deleteOne(filter: Filter): Promise<number> {
    return this.read(() => {
      this.database.highWater.watchDeletes(this.database.db, this.name);
      const where = this.where(filter, this.layout());
      const sql = `DELETE FROM ${this.table} WHERE rowid = (SELECT rowid FROM ${this.table} WHERE ${where.sql} LIMIT 1)`;
      this.database.changes.wroteUnseen(this.name);
      return Number(this.database.statement(sql).run(...where.params).changes);
    }, 0);
  }

  deleteMany(filter: Filter): Promise<number> {
    return this.read(() => {
      this.database.highWater.watchDeletes(this.database.db, this.name);
      const where = this.where(filter, this.layout());
      this.database.changes.wroteUnseen(this.name);
      return Number(this.database.statement(`DELETE FROM ${this.table} WHERE ${where.sql}`).run(...where.params).changes);
    }, 0);
  }

  createIndex(spec: IndexSpec): Promise<void> {
    return this.run(() => {
      if (spec.name === ID_INDEX.name) return;
      this.database.shared.checkIndex(this.name, spec);
      this.database.writeSync(() => {
        this.database.ensureTable(this.name, this.table);
        const existing = indexSpecs(this.database, this.name);
        if (checkNewSpec(this.name, existing, spec) === 'exists') return;
        const layout = addColumns(this.database, this.table, indexedFields(spec));
        this.database.db.exec(createIndexSql(this.name, spec, layout));
        for (const [field, value] of partialLiterals(spec)) this.database.filters.inline(field, value);
        this.database
          .statement(`INSERT INTO _indexes (collection, name, seq, spec) SELECT ?, ?, COALESCE(MAX(seq), 0) + 1, ? FROM _indexes WHERE collection = ?`)
          .run(this.name, spec.name, JSON.stringify(normalizeSpec(spec)), this.name);
        this.database.layouts.forget(this.table);
      });
    });
  }

  listIndexes(): Promise<IndexSpec[]> {
    return this.run(() => {
      if (!hasTable(this.database, this.table)) return [];
      return [ID_INDEX, ...indexSpecs(this.database, this.name)].map(normalizeSpec);
    });
  }

  dropIndex(name: string): Promise<void> {
    return this.run(() => {
      if (name === ID_INDEX.name) throw new StoreError('invalid', `cannot drop the _id_ index of ${this.name}`);
      this.database.writeSync(() => {
        if (!indexSpecs(this.database, this.name).some((s) => s.name === name)) throw new StoreError('index-not-found', `index ${name} not found on ${this.name}`);
        this.database.db.exec(`DROP INDEX IF EXISTS ${sqlIndexName(this.name, name)}`);
        this.database.statement(`DELETE FROM _indexes WHERE collection = ? AND name = ?`).run(this.name, name);
        this.database.layouts.forget(this.table);
      });
    });
  }
}
