// The indexes the console made, by collection: kept in the store itself (`console_indexes`), so
// every console of a database (a primary and its standby, two consoles on one file) knows which
// indexes are its own and which are the site's, never dropped nor rebuilt (compare.ts).
import type { Store } from '../store/port';

export const CREATED_INDEXES = 'console_indexes';

interface CreatedIndex {
  _id: string;
  collection: string;
  name: string;
  key: Record<string, 1 | -1>;
  created: number;
  [field: string]: unknown;
}

export class CreatedIndexes {
  constructor(private readonly store: Store) {}

  private get records() {
    return this.store.collection<CreatedIndex>(CREATED_INDEXES);
  }

  /** The names of the indexes the console made on `collection`. */
  async names(collection: string): Promise<Set<string>> {
    const found = await this.records.find({ collection });
    return new Set(found.map((record) => record.name));
  }

  async made(collection: string, name: string, key: Record<string, 1 | -1>): Promise<void> {
    const _id = `${collection}/${name}`;
    await this.records.deleteOne({ _id });
    await this.records.insertOne({ _id, collection, name, key, created: Date.now() });
  }

  async dropped(collection: string, name: string): Promise<void> {
    await this.records.deleteOne({ _id: `${collection}/${name}` });
  }
}
