// A file of an earlier version has its indexes on expressions (`json_extract(doc, ...)`): at
// open, each table gets its marker and a column for every field its indexes read, filled from
// the documents, and each such index is built again on the columns (columns.ts), all in one
// transaction. The index specs (`_indexes`, what listIndexes answers) are not changed.
import type { IndexSpec } from '../port';
import type { SqliteDatabase } from './database';
import type { WriteHealthLog } from './write-health';
import { collectionNames, indexSpecs } from './catalog';
import { addColumns, guardColumns, guardNames, hasArrayIndexes, Layout, readLayout } from './columns';
import { createIndexSql, indexedFields, sqlIndexName, tableName } from './index-specs';
import { errorMessage } from '../../errors';

interface Upgrade {
  collection: string;
  fields: string[];
  /** The indexes to build again. */
  specs: IndexSpec[];
}

/** What a collection's table lacks: its marker, columns, or indexes on the columns. */
function upgradeOf(database: SqliteDatabase, collection: string, log: WriteHealthLog | undefined): Upgrade | undefined {
  const table = tableName(collection);
  let specs: IndexSpec[];
  try {
    specs = indexSpecs(database, collection);
  } catch (error) {
    log?.error(`[store] ${database.file}: the index specs of ${collection} cannot be read (${errorMessage(error)}); its indexes are left as they are`);
    return undefined;
  }
  const now = readLayout(database, table);
  const fields = specs.flatMap(indexedFields);
  const after = new Layout(new Set([...now.fields, ...fields]), now.marker);
  const built = new Map(
    database.db
      .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL`)
      .all(table.slice(1, -1))
      .map((row) => [String(row.name), String(row.sql)]),
  );
  const stale = specs.filter((spec) => {
    const sql = built.get(sqlIndexName(collection, spec.name).slice(1, -1).replaceAll('""', '"'));
    if (sql === undefined) return false;
    try {
      // SQLite keeps the statement as written, without IF NOT EXISTS; an index built descending (as before) serves as well.
      return [false, true].every((descending) => sql !== createIndexSql(collection, spec, after, descending).replace(' IF NOT EXISTS', ''));
    } catch (error) {
      // A spec this version cannot build (a partial filter it does not take): its index stays as built.
      log?.error(`[store] ${database.file}: index ${spec.name} of ${collection} is left as built: ${errorMessage(error)}`);
      return false;
    }
  });
  const guarded = guardNames(table).every((name) => database.db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = ?`).get(name));
  // A file whose columns were made before their array indexes (sql.ts's arrayFree) gets them too.
  const arrays = hasArrayIndexes(database, table, now.fields);
  if (now.marker && stale.length === 0 && fields.every((f) => now.fields.has(f)) && ((guarded && arrays) || now.fields.size === 0)) return undefined;
  return { collection, fields, specs: stale };
}

export function upgradeColumns(database: SqliteDatabase, log?: WriteHealthLog) {
  const upgrades = collectionNames(database).flatMap((collection) => upgradeOf(database, collection, log) ?? []);
  if (upgrades.length === 0) return;
  database.writeSync(() => {
    for (const { collection, fields, specs } of upgrades) {
      const layout = addColumns(database, tableName(collection), fields);
      // A file whose columns were made before their guard triggers gets them (addColumns adds them with new columns).
      guardColumns(database, tableName(collection), layout);
      for (const spec of specs) {
        database.db.exec(`DROP INDEX ${sqlIndexName(collection, spec.name)}`);
        database.db.exec(createIndexSql(collection, spec, layout));
      }
    }
  });
  const rebuilt = upgrades.flatMap((u) => u.specs.map((s) => `${u.collection}.${s.name}`));
  if (rebuilt.length) log?.info(`[store] ${database.file}: indexes built again on columns of their fields: ${rebuilt.join(', ')}`);
}
