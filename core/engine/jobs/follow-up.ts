// Work that follows from a decision the executor carried out (a child's end for its
// parent, a cancel's children): its own module so that the executor and the operator
// writes it calls can both name it without importing each other.
import type { TaskOutcome } from '../tasks/library';
import type { ChildStart } from './children';
import type { JobEvent } from './decide';

/** Work that follows from a decision carried out. */
export type FollowUp =
  /** A record ended: its job is advanced (read again). */
  | { kind: 'ended'; recordId: string }
  /** An event of a job read again. */
  | { kind: 'event'; jobId: string; event: JobEvent }
  /** A child job ended: its parent's childJob task is told. */
  | { kind: 'child-ended'; childId: string }
  /** A childJob record that waits for its children ends. */
  | { kind: 'end-waiting'; recordId: string; outcome: TaskOutcome }
  /** A child job starts (a sequential loop's next element); `failure` prefixes the task's error when it cannot. */
  | { kind: 'start-child'; start: ChildStart; failure: string };
