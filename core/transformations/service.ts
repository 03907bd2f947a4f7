// The transformations capability: store, list, import, replace, delete and run the
// service's JST documents. Built by the host from narrow dependencies; other
// capabilities (the pre-built/project import, the engine's transformation task)
// call `importTransformations`, `has`, `get` and `run` on it.
import { randomBytes } from 'node:crypto';
import { Transformation } from '../contract/transformations';
import type { Store } from '../store/port';
import { ConsoleError } from '../errors';
import { StoreError } from '../store/errors';
import { TransformationError } from './errors';
import { IncomingValidators, unreadableSchemas } from './incoming';
import { compileTransformation, type CompiledTransformation } from './compiled';
import { checkDocument, type RunResult } from './interpreter';
import { collection, fromStored, toStored, type TransformationDoc } from './repository';
import type { JstDocument, RunOptions } from './types';
import { makeRoom } from '../values/bounded-map';

export interface TransformationsDeps {
  /** The active profile's store, read at each call (a profile switch replaces it). */
  store: () => Store;
  now: () => Date;
}

export class TransformationConflictError extends ConsoleError {
  constructor(message: string) {
    super('conflict', message);
  }
}
export class TransformationInvalidError extends ConsoleError {
  constructor(
    message: string,
    readonly issues: { path: string; message: string }[] = [],
  ) {
    super('bad_input', message, { issues });
  }
}

export interface ImportOutcome {
  imported: { _id: string; name: string }[];
  problems: { name: string; _id?: string; message: string }[];
  warnings: string[];
}

/** A new id in the service's form (24 hex digits, like a MongoDB ObjectId). */
function newId(): string {
  return Math.floor(Date.now() / 1000).toString(16).padStart(8, '0') + randomBytes(8).toString('hex');
}

/** Checks the shape of a document; throws TransformationInvalidError naming each field at fault. */
export function parseTransformation(raw: unknown): TransformationDoc {
  const parsed = Transformation.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join('.') || '(document)', message: issue.message }));
    throw new TransformationInvalidError(issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues);
  }
  return { ...parsed.data, _id: parsed.data._id ?? newId() };
}

/** What a document uses that this console cannot run (unsupported step types or methods, broken wiring), or nothing. */
export function runProblems(doc: TransformationDoc, validators: IncomingValidators): string[] {
  try {
    checkDocument(doc);
    return unreadableSchemas(doc, validators);
  } catch (error) {
    if (error instanceof TransformationError) return [error.message];
    throw error;
  }
}

/**
 * The embedded store's transformations indexed by name, so a page by name (`GET /transformations?limit=1`) and a
 * lookup by name read the documents they answer, not every one to sort them (200 MB: 0.4 s a page without it).
 * Only in the console's own SQLite file: on MongoDB the collection is the service's, indexed as app-jst declares.
 */
async function byNameIndexed(store: Store, indexedByName: WeakSet<Store>): Promise<void> {
  // A store that takes no writes now (read-only after a failed check) is read as it is: sorted without the index.
  if (store.kind !== 'embedded' || indexedByName.has(store) || store.safety?.().writable === false) return;
  try {
    await collection(store).createIndex({ key: { name: 1 }, name: 'name_1' });
  } catch (error) {
    // An index on the same key under another name serves as well.
    if (!(error instanceof StoreError && error.reason === 'index-conflict')) throw error;
  }
  indexedByName.add(store);
}

export function createTransformationsService(deps: Pick<TransformationsDeps, 'store'> & Partial<Pick<TransformationsDeps, 'now'>>) {
  const now = deps.now ?? (() => new Date());
  const coll = () => collection(deps.store());
  // Each stored version of a document (its _id and revision, `lastUpdated`) is compiled
  // once (compiled.ts) and run as that one object, so its plan, closures and validators
  // are built once, not at every run. Kept per service: a profile's service, its cache.
  const compiled = new Map<string, CompiledTransformation>();
  // The stores this service indexed by name (a profile's own file, once per opening).
  const indexedByName = new WeakSet<Store>();
  const validators = new IncomingValidators();
  const revisionKey = (doc: JstDocument): string | undefined =>
    typeof doc._id === 'string' && typeof doc.lastUpdated === 'string' && doc.lastUpdated !== '' ? `${doc._id}\u0000${doc.lastUpdated}` : undefined;
  const compiledFor = (doc: TransformationDoc): CompiledTransformation => {
    // Without `lastUpdated` (a document written by another importer) a new version cannot be told apart: no reuse.
    const key = revisionKey(doc);
    if (key === undefined) return compileTransformation(doc, validators);
    let kept = compiled.get(key);
    if (!kept) {
      makeRoom(compiled, 500);
      kept = compileTransformation(doc, validators);
      compiled.set(key, kept);
    }
    return kept;
  };
  /** Runs a document `resolve` answered (the engine's transformation task) through its compiled form. */
  const runDocument = (doc: JstDocument, incoming: Record<string, unknown>, options: RunOptions = {}): RunResult => {
    const key = revisionKey(doc);
    const kept = key === undefined ? undefined : compiled.get(key);
    return (kept?.document === doc ? kept : compileTransformation(doc, validators)).run(incoming, options);
  };

  async function get(id: string): Promise<TransformationDoc | null> {
    const doc = await coll().findOne({ _id: id });
    return doc ? fromStored(doc) : null;
  }

  async function save(doc: TransformationDoc, overwrite: boolean): Promise<{ saved: TransformationDoc; warnings: string[] }> {
    const c = coll();
    const existing = await c.findOne({ _id: doc._id });
    if (existing && !overwrite) throw new TransformationConflictError(`a transformation with _id ${doc._id} exists already ("${String(existing.name)}"); import with overwrite to replace it`);
    // Workflows name a transformation by _id, so two pre-builts may each bring one of the same name: both are kept.
    const sameName = await c.findOne({ name: doc.name, _id: { $ne: doc._id } });
    const stamp = now().toISOString();
    const saved: TransformationDoc = { ...doc, created: doc.created ?? existing?.created ?? stamp, lastUpdated: stamp };
    if (existing) await c.deleteOne({ _id: doc._id });
    await c.insertOne(toStored(saved));
    const warnings = runProblems(saved, validators);
    if (sameName) warnings.push(`transformation "${doc.name}" (_id ${doc._id}): another transformation has the same name (_id ${String(sameName._id)})`);
    return { saved, warnings };
  }

  return {
    get,
    async has(id: string): Promise<boolean> {
      return (await coll().count({ _id: id })) > 0;
    },
    /** One page by name; only the page's documents are read whole (a search reads the others' names and descriptions). */
    async list(query: { contains?: string; skip?: number; limit?: number } = {}): Promise<{ results: TransformationDoc[]; total: number }> {
      await byNameIndexed(deps.store(), indexedByName);
      const c = coll();
      const skip = query.skip ?? 0;
      const needle = query.contains?.trim().toLowerCase();
      if (!needle) {
        const [page, total] = await Promise.all([c.find({}, { sort: { name: 1 }, skip, ...(query.limit !== undefined ? { limit: query.limit } : {}) }), c.count({})]);
        return { results: page.map(fromStored), total };
      }
      const heads = await c.find({}, { sort: { name: 1 }, projection: { name: 1, description: 1 } });
      const matching = heads.filter((d) => String(d.name ?? '').toLowerCase().includes(needle) || String(d.description ?? '').toLowerCase().includes(needle) || String(d._id) === needle);
      const ids = matching.slice(skip, skip + (query.limit ?? matching.length)).map((d) => String(d._id));
      const docs = ids.length ? new Map((await c.find({ _id: { $in: ids } })).map((d) => [String(d._id), fromStored(d)])) : new Map<string, TransformationDoc>();
      return { results: ids.flatMap((id) => docs.get(id) ?? []), total: matching.length };
    },
    /** Stores one document, its `_id` kept (one is made when it has none). */
    async create(raw: unknown, options: { overwrite?: boolean } = {}) {
      return save(parseTransformation(raw), options.overwrite ?? false);
    },
    async replace(id: string, raw: unknown) {
      if (!(await coll().findOne({ _id: id }))) return null;
      return save({ ...parseTransformation(raw), _id: id }, true);
    },
    async remove(id: string): Promise<boolean> {
      return (await coll().deleteOne({ _id: id })) > 0;
    },
    /** Imports many documents (files, or a pre-built's bundle); each refused one is listed with why, the others are stored. */
    async importTransformations(docs: unknown[], options: { overwrite?: boolean } = {}): Promise<ImportOutcome> {
      const outcome: ImportOutcome = { imported: [], problems: [], warnings: [] };
      for (const raw of docs) {
        const name = raw !== null && typeof raw === 'object' && typeof (raw as { name?: unknown }).name === 'string' ? (raw as { name: string }).name : '(no name)';
        const id = raw !== null && typeof raw === 'object' && typeof (raw as { _id?: unknown })._id === 'string' ? (raw as { _id: string })._id : undefined;
        try {
          const { saved, warnings } = await save(parseTransformation(raw), options.overwrite ?? false);
          outcome.imported.push({ _id: saved._id, name: saved.name });
          outcome.warnings.push(...warnings);
        } catch (error) {
          if (error instanceof TransformationConflictError || error instanceof TransformationInvalidError) {
            outcome.problems.push({ name, ...(id ? { _id: id } : {}), message: error.message });
          } else throw error;
        }
      }
      return outcome;
    },
    /** A document by `_id`, or by name when no `_id` matches (older tasks name it): the transformation task's lookup. */
    async resolve(idOrName: string): Promise<JstDocument | null> {
      const byId = await get(idOrName);
      if (byId) return compiledFor(byId).document;
      await byNameIndexed(deps.store(), indexedByName);
      const byName = await coll().findOne({ name: idOrName });
      return byName ? compiledFor(fromStored(byName)).document : null;
    },
    runDocument,
    /** Runs a stored document; null when there is none with that id. Throws TransformationError for a run that fails. */
    async run(id: string, incoming: Record<string, unknown>, options: RunOptions = {}) {
      const doc = await get(id);
      if (!doc) return null;
      return compiledFor(doc).run(incoming, options);
    },
  };
}

export type TransformationsService = ReturnType<typeof createTransformationsService>;
