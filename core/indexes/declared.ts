// The indexes each application declares for the collections it owns. This is the
// data `npm run index` used to apply, now applied through POST /indexes/:collectionName
// and the Indexing tab. Every index names the query it is for, so a test can check
// that the index really serves it (explain on MongoDB, key-prefix analysis otherwise).
import type { Filter, Sort } from '../store/port';

export type Direction = 1 | -1;

export interface DeclaredIndex {
  key: Record<string, Direction>;
  /** The service's name for it where known (`iap_status_server_id`), else MongoDB's default name for the key (`status_1_metrics.start_time_-1`). */
  name: string;
  unique: boolean;
  /** MongoDB's partial index: only the documents matching this filter are in it (smaller, and cheaper to keep). */
  partialFilterExpression?: Filter;
  /** What reads this index, for people. */
  purpose: string;
  /** On fields only the console writes (its task queue's): an index of its name and key is the console's. */
  consoleOnly?: boolean;
  /** Built on these stores only (an index for the service's tools, which read MongoDB). */
  stores?: ('embedded' | 'mongodb')[];
  /** The query the index is for, with sample values (used to check the index serves it). */
  query: { filter: Filter; sort?: Sort };
}

export interface DeclaredCollection {
  collection: string;
  application: string;
  indexes: DeclaredIndex[];
}

export interface DeclaringApplication {
  /** The application's name as the removed `npm run index` knew it. */
  name: string;
  /** Other names operators use for it (package and health names). */
  aliases: string[];
  collections: DeclaredCollection[];
}

/** MongoDB's default index name: each field and direction joined by `_`. */
export function defaultIndexName(key: Record<string, Direction>): string {
  return Object.entries(key)
    .map(([field, direction]) => `${field}_${direction}`)
    .join('_');
}

type IndexInput = Omit<DeclaredIndex, 'name' | 'unique'> & { unique?: boolean; name?: string };

function index(input: IndexInput): DeclaredIndex {
  return { ...input, name: input.name ?? defaultIndexName(input.key), unique: input.unique ?? false };
}

function collections(application: string, table: Record<string, IndexInput[]>): DeclaredCollection[] {
  return Object.entries(table).map(([collection, indexes]) => ({ collection, application, indexes: indexes.map(index) }));
}

// Sample values stand in for "now" and for what an operator filters by.
const NOW = new Date('2022-01-01T00:00:00Z');

const workflowEngine: DeclaringApplication = {
  name: 'workflow_engine',
  aliases: ['app-workflow_engine', 'WorkFlowEngine'],
  collections: collections('workflow_engine', {
    jobs: [
      {
        key: { status: 1, 'metrics.start_time': -1 },
        purpose: 'jobs list filtered by status, newest first',
        query: { filter: { status: 'running' }, sort: { 'metrics.start_time': -1 } },
      },
      {
        key: { name: 1, 'metrics.start_time': -1 },
        purpose: 'jobs list filtered by workflow name, newest first',
        query: { filter: { name: 'provision-device' }, sort: { 'metrics.start_time': -1 } },
      },
      {
        key: { 'metrics.start_time': -1 },
        purpose: 'jobs list without a filter, newest first',
        query: { filter: {}, sort: { 'metrics.start_time': -1 } },
      },
      {
        // Only child jobs have a parent: top-level jobs, most of them, are not in it.
        key: { 'parent.job': 1, 'metrics.start_time': 1 },
        partialFilterExpression: { 'parent.job': { $exists: true } },
        purpose: 'the child jobs of a job, in start order',
        query: { filter: { 'parent.job': 'job-1' }, sort: { 'metrics.start_time': 1 } },
      },
      {
        // Only running jobs are looked for: the index holds them, not every job ever run.
        key: { status: 1, last_updated: 1 },
        partialFilterExpression: { status: 'running' },
        purpose: 'recovery: running jobs not updated for a lease (a start left half-done), oldest first',
        query: { filter: { status: 'running', last_updated: { $lt: NOW } }, sort: { last_updated: 1 } },
      },
      {
        // The vendor's job archiver finds a family's jobs by their root (its README asks for this index).
        key: { 'ancestors.0': 1 },
        stores: ['mongodb'],
        purpose: "the service's tools: the jobs of a family by their root job (the job archiver's second phase)",
        query: { filter: { 'ancestors.0': { $in: ['job-1', 'job-2'] } } },
      },
      {
        // The name the vendor's job metrics exporter hints (it fails without the index).
        key: { status: 1, _id: 1 },
        name: 'itential_status',
        stores: ['mongodb'],
        purpose: "the service's tools: jobs counted by status (the job metrics exporter)",
        query: { filter: { status: 'complete' }, sort: { _id: 1 } },
      },
    ],
    job_history: [
      {
        key: { jobId: 1, timestamp: 1 },
        purpose: 'history of one job, in order',
        query: { filter: { jobId: 'job-1' }, sort: { timestamp: 1 } },
      },
    ],
    tasks: [
      {
        // Equality, then sort, then range: the claim reads the oldest queued task due now. Only
        // queued tasks are in it: a task handed to a worker as it is queued never enters it.
        key: { status: 1, queuedAt: 1, runAfter: 1 },
        partialFilterExpression: { status: 'queued' },
        consoleOnly: true,
        purpose: 'task worker claim: the oldest queued task that is due',
        query: { filter: { status: 'queued', runAfter: { $lte: NOW } }, sort: { queuedAt: 1 } },
      },
      {
        // Only a claimed task holds a lease: the index holds the running tasks, not every task ever run.
        key: { status: 1, leaseUntil: 1 },
        partialFilterExpression: { leaseUntil: { $exists: true } },
        consoleOnly: true,
        purpose: 'sweeper: running tasks whose lease expired',
        query: { filter: { status: 'running', leaseUntil: { $lt: NOW } } },
      },
      {
        // Only tasks waiting for an operator: few, and read by every Jobs list, the work queue and attention.
        key: { status: 1, queuedAt: 1 },
        partialFilterExpression: { status: 'waiting' },
        consoleOnly: true,
        purpose: 'tasks waiting for an operator (work queue, Jobs list, attention), oldest first',
        query: { filter: { status: 'waiting', childJob: { $exists: false } }, sort: { queuedAt: 1 } },
      },
      {
        key: { jobId: 1, queuedAt: 1 },
        consoleOnly: true,
        purpose: 'the tasks of one job, in queue order (job detail, cancel, pause, resume)',
        query: { filter: { jobId: 'job-1' }, sort: { queuedAt: 1 } },
      },
      {
        // Only a record not yet advanced is looked for: those advanced, nearly all, are not in it.
        key: { advanced: 1, 'metrics.end_time': 1 },
        partialFilterExpression: { advanced: false },
        consoleOnly: true,
        purpose: 'recovery: ended tasks whose job was not advanced, oldest first',
        query: { filter: { advanced: false, 'metrics.end_time': { $lt: NOW } }, sort: { 'metrics.end_time': 1 } },
      },
      {
        // The service's key of a task document to its job: the archiver's cascade reads it.
        key: { 'job._id': 1 },
        stores: ['mongodb'],
        purpose: "the service's tools: a job's task documents by job._id (the job archiver's cascade)",
        query: { filter: { 'job._id': { $in: ['job-1', 'job-2'] } } },
      },
      {
        // The name the vendor's job metrics exporter hints by default (it fails without the index).
        key: { status: 1, 'metrics.server_id': 1 },
        name: 'iap_status_server_id',
        stores: ['mongodb'],
        purpose: "the service's tools: tasks counted by status and server (the job metrics exporter)",
        query: { filter: { status: 'running' } },
      },
    ],
    workflows: [
      {
        key: { name: 1 },
        unique: true,
        purpose: 'a workflow by name; names are unique',
        query: { filter: { name: 'provision-device' } },
      },
    ],
    wfe_job_metrics: [
      {
        key: { workflow: 1 },
        purpose: 'job metrics of one workflow',
        query: { filter: { workflow: 'provision-device' } },
      },
    ],
    wfe_task_metrics: [
      {
        key: { app: 1, name: 1 },
        purpose: 'task metrics of one task method of an application',
        query: { filter: { app: 'WorkFlowEngine', name: 'codePointAt' } },
      },
    ],
  }),
};

const mop: DeclaringApplication = {
  name: 'mop',
  aliases: ['app-mop', 'MOP'],
  collections: collections('mop', {
    mop_templates: [
      {
        key: { name: 1 },
        unique: true,
        purpose: 'a command template by name; names are unique',
        query: { filter: { name: 'show-version' } },
      },
    ],
    mop_analytic_templates: [
      {
        key: { name: 1 },
        unique: true,
        purpose: 'an analytic template by name; names are unique',
        query: { filter: { name: 'pre-post-diff' } },
      },
    ],
  }),
};

const serviceCatalog: DeclaringApplication = {
  name: 'service_catalog',
  aliases: ['app-service_catalog', 'ServiceCatalog'],
  collections: collections('service_catalog', {
    catalog_store: [
      {
        key: { name: 1 },
        purpose: 'a catalog entry by name',
        query: { filter: { name: 'l3vpn' } },
      },
    ],
  }),
};

export const declaringApplications: DeclaringApplication[] = [workflowEngine, mop, serviceCatalog];

export const declaredCollections: DeclaredCollection[] = declaringApplications.flatMap((app) => app.collections);

export const declaredCollectionNames: string[] = declaredCollections.map((c) => c.collection);

/** The declared indexes a store of `kind` builds (some are for the service's tools on MongoDB only). */
export function indexesBuiltOn(declared: DeclaredCollection, kind: 'embedded' | 'mongodb'): DeclaredIndex[] {
  return declared.indexes.filter((index) => !index.stores || index.stores.includes(kind));
}

export function findDeclaredCollection(name: string): DeclaredCollection | undefined {
  return declaredCollections.find((c) => c.collection === name);
}

/** The application named `name`, by its name or an alias, case-insensitively. */
export function findDeclaringApplication(name: string): DeclaringApplication | undefined {
  const wanted = name.toLowerCase();
  return declaringApplications.find((app) => [app.name, ...app.aliases].some((n) => n.toLowerCase() === wanted));
}
