// A connection of its own to an embedded store's file, as another program would open it: for a
// test to read (or write) what the file holds, beside the store's own connection.
import { sqlite } from '../../../core/store/embedded/sqlite';

export type RawDatabase = InstanceType<ReturnType<typeof sqlite>['DatabaseSync']>;

/** Runs `fn` on a connection of its own to `file`, closed after it. */
export function withRawFile<T>(file: string, fn: (db: RawDatabase) => T): T {
  const db = new (sqlite().DatabaseSync)(file);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}
