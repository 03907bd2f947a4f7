// What the file holds, read from SQLite's own tables and the console's: the collections,
// their document counts (kept by triggers in `_counts`) and their declared indexes.
import type { IndexSpec } from '../port';
import type { SqliteDatabase } from './database';

/** The number of documents of a collection (kept by its triggers), or undefined when it has no table. */
export function documentCount(database: SqliteDatabase, collection: string): number | undefined {
  const row = database.statement(`SELECT n FROM _counts WHERE collection = ?`).get(collection);
  return row === undefined ? undefined : Number(row.n);
}

/** Every collection's document count (the store's state record keeps the last known). */
export function documentCounts(database: SqliteDatabase): Record<string, number> {
  const rows = database.statement(`SELECT collection, n FROM _counts ORDER BY collection`).all();
  return Object.fromEntries(rows.map((row) => [String(row.collection), Number(row.n)]));
}

export function hasTable(database: SqliteDatabase, table: string): boolean {
  return database.statement(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(table.slice(1, -1)) !== undefined;
}

export function collectionNames(database: SqliteDatabase): string[] {
  const rows = database.statement(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'c:%' ORDER BY name`).all();
  return rows.map((row) => String(row.name).slice(2));
}

/** Every collection's index specs: those whose text is not JSON are named in `damaged`, not thrown. */
export function allIndexSpecs(database: SqliteDatabase): { specs: IndexSpec[]; damaged: string[] } {
  const specs: IndexSpec[] = [];
  const damaged: string[] = [];
  for (const row of database.statement(`SELECT collection, name, spec FROM _indexes ORDER BY collection, seq`).all()) {
    try {
      specs.push(JSON.parse(String(row.spec)) as IndexSpec);
    } catch (error) {
      damaged.push(`${String(row.collection)}.${String(row.name)} (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  return { specs, damaged };
}

export function indexSpecs(database: SqliteDatabase, collection: string): IndexSpec[] {
  const rows = database.statement(`SELECT spec FROM _indexes WHERE collection = ? ORDER BY seq`).all(collection);
  return rows.map((row): IndexSpec => JSON.parse(String(row.spec)));
}
