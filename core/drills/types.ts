// The shapes of a drill: its options, steps and report. Browser-safe (the page reads them too).
import type { ReadinessItem } from './readiness';
import type { SimulatedCallCount, WorkflowSource } from './own-workflows';

/** kill: kill -9 of a lab site's process; stop: its task worker and applications stopped over its API; gone: no call to it at all after the failure point. */
export type FailureMode = 'kill' | 'stop' | 'gone';

/** What every drill takes, lab or sites. */
export interface DrillOptions {
  id?: string;
  jobs: number;
  failure: FailureMode;
  failback: boolean;
  /** The operator's critical workflows: each must be on the standby with every adapter and method it needs (the drill's own workflow always is checked). */
  workflows?: string[];
  /** A drill of the operator's own workflows (load: workflows): per chosen workflow, its jobs' variables (a sample of its inputSchema unless given). */
  variables?: Record<string, Record<string, unknown>>;
  /**
   * Where `workflows` are read from (this console's profile): given, the drill copies them to the
   * sites that lack them, simulates what they lack and its load runs them instead of the ledger
   * workflow (the operation's `load: "workflows"`).
   */
  source?: WorkflowSource;
  /** Failover writes `processTasksOnStart: true` into the standby's active profile; failback restores both sites' values. */
  persistProcessTasksOnStart?: boolean;
  targets?: { rtoMs?: number; drainMs?: number };
}

export interface LabDrillOptions extends DrillOptions {
  failure: 'kill' | 'stop';
  /** Folder of the lab's data directories and database file (a temporary one unless given). */
  dir?: string;
  /** Share one MongoDB instead of one embedded file. */
  mongoUrl?: string;
  /** A misconfigured standby, to see the readiness check catch it. */
  standbyProcessTasksOnStart?: boolean;
}

/** A site of a sites drill: a console by URL and token (never kept in a report). */
export interface SiteAddress {
  url: string;
  token: string;
}

export interface SitesDrillOptions extends DrillOptions {
  failure: 'stop' | 'gone';
  active: SiteAddress;
  standby: SiteAddress;
  /** The address the sites reach the drill's ledger at (127.0.0.1 unless given: both sites on this machine). */
  ledgerHost?: string;
  /** How long failback after `gone` waits for the active site to answer again. */
  failbackWaitMs?: number;
}

export interface DrillStep {
  name: string;
  startedAt: number;
  endedAt: number | null;
  ok: boolean;
  detail?: string;
  error?: string;
}

export interface DrillSiteInfo {
  name: string;
  url: string;
  serverId: string;
  serverName: string;
  store: string;
  /** properties.json as the site answered it at the start: secrets masked. */
  properties: Record<string, unknown>;
  /** What the drill changed in its profile, in order ("processTasksOnStart false → true (failover)"). */
  changes?: string[];
}

// A type, not an interface: a store collection holds it (documents are records).
export type DrillReport = {
  id: string;
  kind: 'lab' | 'sites';
  failure: FailureMode;
  failback: boolean;
  persistProcessTasksOnStart?: boolean;
  /** The operator's critical workflows checked on the standby. */
  workflows?: string[];
  /** What the load ran: the drill's ledger workflow, or the chosen `workflows` on simulated instances. */
  load?: 'ledger' | 'workflows';
  status: 'running' | 'done' | 'failed';
  passed: boolean;
  error?: string;
  /** Where the sites were left when a step failed. */
  leftAs?: string;
  startedAt: number;
  endedAt?: number;
  database?: string;
  jobs: number;
  jobsCompleted: number;
  tasksLost: number;
  taskRecordsCompletedTwice: number;
  sideEffects: number;
  sideEffectsRepeated: number;
  /** A drill of the operator's own workflows: per simulated instance and method, the calls its jobs' task records show. */
  simulatedCalls?: SimulatedCallCount[];
  /** Failure → first task completed on the standby. */
  rtoMs: number | null;
  /** Failure → last task of the load completed. */
  drainMs: number | null;
  leaseMs: number;
  targets: { rtoMs: number; drainMs: number };
  readiness: ReadinessItem[];
  sites: DrillSiteInfo[];
  steps: DrillStep[];
};
