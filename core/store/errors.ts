// Errors of the store that callers act on: both adapters throw a StoreError with
// the same `reason`, so the engine and indexing never look at driver internals.
import { ConsoleError, type ErrorCode } from '../errors';
import { redactText } from '../secrets/classify';

export type StoreErrorReason =
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

/**
 * What each reason means to a caller: a document the store cannot keep is the request's fault;
 * a key already taken is a conflict; a database that cannot be reached or read is unavailable.
 */
const CODE_OF_REASON: Record<StoreErrorReason, ErrorCode> = {
  'duplicate-key': 'conflict',
  unreachable: 'unavailable',
  auth: 'unavailable',
  damaged: 'unavailable',
  'index-conflict': 'conflict',
  'index-not-found': 'not_found',
  invalid: 'bad_input',
  failed: 'internal',
};

export class StoreError extends ConsoleError {
  constructor(
    readonly reason: StoreErrorReason,
    message: string,
  ) {
    super(CODE_OF_REASON[reason], message);
    this.name = 'StoreError';
  }

  /** The database cannot be reached or read (as opposed to refusing this one request). */
  get isUnavailable(): boolean {
    return this.code === 'unavailable';
  }

  /** A store's message may quote a connection string: secrets masked; a refused document says so. */
  override answerMessage(): string {
    const prefix = this.reason === 'invalid' ? 'the store cannot keep this data: ' : '';
    return prefix + redactText(this.message);
  }
}

/**
 * Runs `work`; a store that cannot be reached or read is the server's trouble, not the caller's:
 * a 503 naming what could not be reached (`the workflows`) and the store's cause.
 */
export async function whileStoreAnswers<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof StoreError && error.isUnavailable) throw new ConsoleError('unavailable', `${what} cannot be reached in the store: ${error.message}`);
    throw error;
  }
}

export const isDuplicateKey = (error: unknown) => error instanceof StoreError && error.reason === 'duplicate-key';

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

/**
 * findManyAndUpdate's options, checked alike by both adapters: `limit` a positive whole number, and an
 * update that changes no field of `sort` (the documents are answered in the order they matched by).
 */
export function checkFindMany(update: { $set?: object; $unset?: object; $inc?: object }, options: { sort?: Record<string, 1 | -1>; limit: number }): number {
  const { limit, sort } = options;
  if (!Number.isSafeInteger(limit) || limit < 1) throw new StoreError('invalid', `findManyAndUpdate: limit must be a whole number of at least 1, not ${String(limit)}`);
  const changed = [update.$set, update.$unset, update.$inc].flatMap((fields) => Object.keys(fields ?? {}));
  const field = Object.keys(sort ?? {}).find((key) => changed.some((path) => path === key || path.startsWith(`${key}.`) || key.startsWith(`${path}.`)));
  if (field !== undefined) throw new StoreError('invalid', `findManyAndUpdate: the update changes the sort field ${field}`);
  return limit;
}
