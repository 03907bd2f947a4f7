// The shapes of a drill: its options, steps and report. Browser-safe (the page reads them too).
import type { ReadinessItem } from './readiness';

export type FailureMode = 'kill' | 'stop';

export interface LabDrillOptions {
  id?: string;
  jobs: number;
  failure: FailureMode;
  failback: boolean;
  /** Folder of the lab's data directories and database file (a temporary one unless given). */
  dir?: string;
  /** Share one MongoDB instead of one embedded file. */
  mongoUrl?: string;
  /** A misconfigured standby, to see the readiness check catch it. */
  standbyProcessTasksOnStart?: boolean;
  targets?: { rtoMs?: number; drainMs?: number };
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
  /** properties.json as the site answered it: secrets masked. */
  properties: Record<string, unknown>;
}

export interface DrillReport {
  id: string;
  kind: 'lab';
  failure: FailureMode;
  failback: boolean;
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
  /** Failure → first task completed on the standby. */
  rtoMs: number | null;
  /** Failure → last task of the load completed. */
  drainMs: number | null;
  leaseMs: number;
  targets: { rtoMs: number; drainMs: number };
  readiness: ReadinessItem[];
  sites: DrillSiteInfo[];
  steps: DrillStep[];
}
