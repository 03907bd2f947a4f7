// Index builds on one store: at most one build per collection at a time, run in the
// background (the POST answers at once), one index after another. A build creates
// missing indexes and drops and re-creates the console's own misnamed ones; an index the
// console did not make (created.ts) is never touched, whatever its keys. The last failure is kept until the next build so the
// status and the Indexing tab can show which index failed and why.
import type { CollectionIndexStatus } from '../contract/indexes';
import type { IndexSpec, Store } from '../store/port';
import { compareIndexes, type Comparison } from './compare';
import { CreatedIndexes } from './created';
import { indexesBuiltOn, type DeclaredCollection, type DeclaredIndex } from './declared';

export interface BuildStartResult {
  unchanged: number;
  changed: number;
  total: number;
  running: boolean;
}

interface BuildState {
  running?: Promise<void>;
  progress?: { done: number; total: number; index: string };
  failure?: { index: string; message: string; at: string };
}

interface Step {
  index: DeclaredIndex;
  /** For a misnamed index: the existing one to drop first. */
  drop?: string;
}

const causeOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export class IndexBuilds {
  private readonly states = new Map<string, BuildState>();
  /**
   * Index changes of all collections go to the store one at a time: the database
   * builds one index at a time anyway, and the embedded store keeps every
   * collection's index specs in one file.
   */
  private ddlTail: Promise<unknown> = Promise.resolve();

  private ddl<T>(work: () => Promise<T>): Promise<T> {
    const result = this.ddlTail.then(work, work);
    // The caller gets `result`'s error; the chain only orders the next DDL after this one.
    this.ddlTail = result.catch(() => undefined);
    return result;
  }

  private readonly created: CreatedIndexes;

  constructor(private readonly store: Store) {
    this.created = new CreatedIndexes(store);
  }

  /** The declared indexes this store builds (some are for the service's tools on MongoDB only). */
  private indexesOf(declared: DeclaredCollection): DeclaredIndex[] {
    return indexesBuiltOn(declared, this.store.kind);
  }

  private state(collection: string): BuildState {
    let state = this.states.get(collection);
    if (!state) this.states.set(collection, (state = {}));
    return state;
  }

  async compare(declared: DeclaredCollection): Promise<Comparison> {
    let listed: IndexSpec[];
    let created: Set<string>;
    try {
      [listed, created] = await Promise.all([this.store.collection(declared.collection).listIndexes(), this.created.names(declared.collection)]);
    } catch (error) {
      throw new Error(`cannot list the indexes of ${declared.collection} on the ${this.store.location}: ${causeOf(error)}`, { cause: error });
    }
    return compareIndexes(this.indexesOf(declared), listed, created);
  }

  async status(declared: DeclaredCollection): Promise<CollectionIndexStatus> {
    const state = this.state(declared.collection);
    // Read before listing: a build that ends while the listing is in flight must not
    // be reported ended with the listing it had not finished yet.
    const runningAtListing = Boolean(state.running);
    const comparison = await this.compare(declared);
    const running = runningAtListing || Boolean(state.running);
    return {
      collection: declared.collection,
      application: declared.application,
      indexed: comparison.missing.length === 0 && comparison.misnamed.length === 0,
      running,
      total: this.indexesOf(declared).length,
      current: comparison.current.length,
      missing: comparison.missing,
      misnamed: comparison.misnamed,
      external: comparison.external,
      ...(running && state.progress ? { progress: { ...state.progress } } : {}),
      ...(state.failure ? { failure: { ...state.failure } } : {}),
    };
  }

  /** Starts a build unless one runs; resolves once the build is planned, not when it ends. */
  async start(declared: DeclaredCollection): Promise<BuildStartResult> {
    const state = this.state(declared.collection);
    const total = this.indexesOf(declared).length;
    if (state.running) {
      const comparison = await this.compare(declared);
      const changed = comparison.missing.length + comparison.misnamed.length;
      return { unchanged: total - changed, changed, total, running: true };
    }
    let planned!: (steps: Step[]) => void;
    let unplanned!: (error: unknown) => void;
    const plan = new Promise<Step[]>((resolve, reject) => {
      planned = resolve;
      unplanned = reject;
    });
    // `running` is set before the first await, so a second request that arrives
    // while this one lists the indexes starts nothing new.
    state.running = (async () => {
      let steps: Step[];
      try {
        const comparison = await this.compare(declared);
        const byName = new Map(this.indexesOf(declared).map((index) => [index.name, index]));
        // Each entry names a declared index; a misnamed one also the existing index to drop first.
        const stepOf = (entry: { name: string; found?: { name: string } }): Step[] => {
          const index = byName.get(entry.name);
          return index ? [{ index, ...(entry.found ? { drop: entry.found.name } : {}) }] : [];
        };
        steps = [...comparison.misnamed.flatMap(stepOf), ...comparison.missing.flatMap(stepOf)];
      } catch (error) {
        unplanned(error);
        return;
      }
      state.failure = undefined;
      planned(steps);
      await this.run(declared.collection, state, steps);
    })().finally(() => {
      state.running = undefined;
      state.progress = undefined;
    });
    const steps = await plan;
    // A started build is reported running even if a fast store already finished it.
    return { unchanged: total - steps.length, changed: steps.length, total, running: steps.length > 0 };
  }

  private async run(collectionName: string, state: BuildState, steps: Step[]): Promise<void> {
    const collection = this.store.collection(collectionName);
    for (const [done, step] of steps.entries()) {
      const { index, drop } = step;
      state.progress = { done, total: steps.length, index: index.name };
      if (drop !== undefined) {
        try {
          await this.ddl(() => collection.dropIndex(drop));
          await this.created.dropped(collectionName, drop);
        } catch (error) {
          state.failure = {
            index: index.name,
            message: `dropping index "${step.drop}" of ${collectionName} to re-create it as "${index.name}" failed: ${causeOf(error)}`,
            at: new Date().toISOString(),
          };
          return;
        }
      }
      try {
        await this.ddl(() =>
          collection.createIndex({
            key: index.key,
            name: index.name,
            ...(index.unique ? { unique: true } : {}),
            ...(index.partialFilterExpression ? { partialFilterExpression: index.partialFilterExpression } : {}),
          }),
        );
        await this.created.made(collectionName, index.name, index.key);
      } catch (error) {
        state.failure = {
          index: index.name,
          message: `creating ${index.unique ? 'unique ' : ''}index "${index.name}" on ${collectionName} failed: ${causeOf(error)}`,
          at: new Date().toISOString(),
        };
        return;
      }
    }
  }

  /** Resolves when no build runs on this store (tests, shutdown). */
  async whenIdle(): Promise<void> {
    for (;;) {
      const running = [...this.states.values()].flatMap((s) => (s.running ? [s.running] : []));
      if (running.length === 0) return;
      await Promise.allSettled(running);
    }
  }
}
