// Errors of the store that callers act on: both adapters throw a StoreError with
// the same `code`, so the engine and indexing never look at driver internals.

export type StoreErrorCode =
  /** A unique index refused a write. */
  | 'duplicate-key'
  /** The database could not be reached (host down, refused, DNS, TLS). */
  | 'unreachable'
  /** The credentials were refused. */
  | 'auth'
  /** An embedded collection file cannot be read back. */
  | 'damaged'
  /** An index with this name or key exists with another definition. */
  | 'index-conflict'
  /** The named index does not exist. */
  | 'index-not-found'
  /** The request itself is wrong (bad collection name, unsupported operator...). */
  | 'invalid'
  | 'failed';

export class StoreError extends Error {
  constructor(
    readonly code: StoreErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'StoreError';
  }
}

export const isDuplicateKey = (error: unknown) => error instanceof StoreError && error.code === 'duplicate-key';

/** Collection names become file names in the embedded store: keep them to a safe alphabet. */
export function checkCollectionName(name: string) {
  if (!/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,119}$/.test(name)) {
    throw new StoreError('invalid', `invalid collection name ${JSON.stringify(name)}: use letters, digits, "_", "-" and "." (not first)`);
  }
}

/** The MongoDB name of an index on these keys: `status_1_metrics.start_time_-1`. */
export const defaultIndexName = (key: Record<string, 1 | -1>) =>
  Object.entries(key)
    .map(([field, direction]) => `${field}_${direction}`)
    .join('_');
