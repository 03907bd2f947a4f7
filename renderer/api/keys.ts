// The React Query keys of the console, from one factory. A key is the contract operation
// it calls (type-checked: a misspelt operation does not compile), then what it is called
// with. Every query of an operation therefore starts with the operation's name, so what
// a change makes stale is said once, as the operations it touches (AFFECTS), and
// `refreshAfter(client, 'job')` reads them all again: no page keeps its own list.
import type { QueryClient } from '@tanstack/react-query';
import type { OperationName } from '../../core/contract';

/** Every query of one operation (any arguments): for invalidation, or a query without arguments. */
export const opKey = <N extends OperationName>(name: N) => [name] as const;

/** The queries the pages make, by what they show. */
export const qk = {
  status: () => opKey('health.status'),
  attention: () => opKey('console.attention'),
  workers: () => opKey('workers.status'),
  jobs: <F extends object>(filters: F, page: number) => ['jobs.list', filters, page] as const,
  job: (id: string) => ['jobs.get', id] as const,
  jsonForm: (id: string) => ['jsonForms.get', id] as const,
  worklist: (workflow: string | undefined, view: string) => ['tasks.worklist', workflow, view] as const,
  worklistHistory: () => opKey('tasks.worklistHistory'),
  workflows: () => opKey('workflows.list'),
  workflow: (name: string) => ['workflows.get', name] as const,
  transformations: (search: string) => ['transformations.list', search] as const,
  transformation: (id: string) => ['transformations.get', id] as const,
  importRun: (runId: string | undefined) => ['projects.importRun', runId] as const,
  studioProjects: () => opKey('projects.studioList'),
  profiles: () => opKey('profiles.list'),
  profile: (id: string | undefined) => ['profiles.get', id] as const,
  /** The Health tables and the Adapters and Logs pages list adapters and applications with a query. */
  health: <Q extends object>(operation: 'health.adapters' | 'health.applications', query: Q) => [operation, query] as const,
  server: () => opKey('health.server'),
  system: () => opKey('health.system'),
  deprecatedCalls: () => opKey('health.deprecatedCalls'),
  release: () => opKey('release.table'),
  rehearsal: (id: string | undefined) => ['upgrade.rehearsal', id] as const,
  upgradeRun: (runId: string | undefined) => ['upgrade.run', runId] as const,
  store: () => opKey('store.status'),
  backups: () => opKey('store.backups.list'),
  indexes: () => opKey('indexes.statusAll'),
  adapterPackages: () => opKey('adapters.packages'),
  adapter: (name: string) => ['adapters.get', name] as const,
  recordings: () => opKey('adapters.recordings'),
  automations: () => opKey('automations.overview'),
  drills: () => opKey('drills.list'),
  drill: (id: string) => ['drills.get', id] as const,
};

/** What each kind of change makes stale: the operations whose queries are read again after it. */
export const AFFECTS = {
  /** A job started, paused, resumed, canceled or retried (one or many). */
  job: ['jobs.get', 'jobs.list', 'console.attention'],
  /** A manual task finished or claimed: the job, the work queue and its history too. */
  manualTask: ['jobs.get', 'jobs.list', 'tasks.worklist', 'tasks.worklistHistory', 'console.attention'],
  /** The work queue alone (a claim or a release). */
  worklist: ['tasks.worklist'],
  workflows: ['workflows.list', 'workflows.get'],
  /** An import done: the workflows it brought, and the project it kept. */
  imports: ['workflows.list', 'workflows.get', 'projects.studioList'],
  transformations: ['transformations.list', 'transformations.get'],
  /** An adapter instance created, changed, started or stopped. */
  adapters: ['health.adapters', 'adapters.get', 'adapters.list'],
  applications: ['health.applications'],
  /** Simulating what a workflow needs: adapters made, workflows now ready. */
  simulation: ['workflows.list', 'health.adapters', 'adapters.list', 'adapters.get'],
  recordings: ['adapters.recordings', 'health.adapters'],
  /** A profile saved: the profiles and what shows the active profile's settings (status bar, attention, worker's startup value). */
  profiles: ['profiles.list', 'profiles.get', 'health.status', 'console.attention', 'workers.status'],
  /** The task worker started or stopped: the status bar and attention's role check change with it. */
  worker: ['workers.status', 'health.status', 'console.attention'],
  store: ['store.status', 'store.backups.list', 'health.status'],
  automations: ['automations.overview'],
  drills: ['drills.list'],
  indexes: ['indexes.statusAll'],
} as const satisfies Record<string, readonly OperationName[]>;

export type Change = keyof typeof AFFECTS;

/** The operations stale after these changes, each once. */
export function staleAfter(...changes: Change[]): OperationName[] {
  return [...new Set(changes.flatMap((change): readonly OperationName[] => AFFECTS[change]))];
}

/** Reads again every query the changes made stale. */
export function refreshAfter(client: QueryClient, ...changes: Change[]): Promise<void> {
  return Promise.all(staleAfter(...changes).map((operation) => client.invalidateQueries({ queryKey: opKey(operation) }))).then(() => undefined);
}

/** After a change of everything (a profile activated, a backup restored): every query is read again. */
export function refreshEverything(client: QueryClient): Promise<void> {
  return client.invalidateQueries();
}
