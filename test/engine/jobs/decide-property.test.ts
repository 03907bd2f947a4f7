// The decision core under random event sequences (fast-check): tasks ending in any state,
// deliveries repeated, dropped and recovered later in another order, operators acting at any
// time (cancel, pause, resume, retry, finish, claim, release, take over). Each decision is
// carried out by a model of the executor's writes (conditional as the executor's are), and:
// - carrying out a decision twice changes nothing (or is refused, and the unit of work writes nothing);
// - record ids never collide: a record written under an id that exists is the same task and iteration;
// - every job ends or waits: a running job always has a task queued, waiting or ended and not yet advanced,
//   and once nothing is left to run it is complete, canceled, in error, paused, or waits for an operator;
// - the decision core refuses only with domain errors (a DomainError: not allowed, no such part, invalid value).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide, type Decision, type JobEvent } from '../../../core/engine/jobs/decide';
import type { OperatorAction } from '../../../core/engine/jobs/actions';
import type { TaskClaim } from '../../../core/engine/jobs/claims';
import type { JobHistoryEntry } from '../../../core/engine/jobs/history';
import { endFields } from '../../../core/engine/jobs/records';
import type { JobDoc, TaskDefinition } from '../../../core/engine/jobs/types';
import type { FinishState, TaskRecord } from '../../../core/engine/queue/queue';
import { DomainError } from '../../../core/errors';

const auto = (name: string): TaskDefinition => ({ name, app: 'WorkFlowEngine', type: 'automatic', variables: { incoming: { str: 'x' }, outgoing: {} } });
const manual: TaskDefinition = { name: 'ViewData', app: 'WorkFlowEngine', type: 'manual', variables: { incoming: { header: 'h', body: '' }, outgoing: {} } };
const go = (state = 'success', type = 'standard') => ({ type, state });

/** Workflows with the shapes that matter: an error path and a revert loop; a parallel join; a manual task. */
const WORKFLOWS: Pick<JobDoc, 'tasks' | 'transitions'>[] = [
  {
    tasks: { a: auto('toUpperCase'), b: auto('toLowerCase'), h: auto('toUpperCase') },
    transitions: { workflow_start: { a: go() }, a: { b: go(), h: go('error') }, b: { workflow_end: go(), a: go('failure', 'revert') }, h: { workflow_end: go() } },
  },
  {
    tasks: { a: auto('toUpperCase'), b: auto('toLowerCase'), c: auto('concat') },
    transitions: { workflow_start: { a: go(), b: go() }, a: { c: go() }, b: { c: go() }, c: { workflow_end: go() } },
  },
  {
    tasks: { m: manual, a: auto('toUpperCase') },
    transitions: { workflow_start: { m: go() }, m: { a: go(), workflow_end: go('failure') }, a: { workflow_end: go(), m: go('failure', 'revert') } },
  },
];

interface World {
  job: JobDoc;
  records: Record<string, TaskRecord>;
  claims: Record<string, TaskClaim>;
  history: Record<string, JobHistoryEntry>;
}

type FollowUp = { kind: 'ended'; recordId: string } | { kind: 'advance' };

class Refused extends Error {}

function setPath(target: Record<string, unknown>, path: string, value: unknown) {
  const parts = path.split('.');
  let at = target;
  for (const part of parts.slice(0, -1)) at = (at[part] ??= {}) as Record<string, unknown>;
  at[parts.at(-1)!] = value;
}

function unsetPath(target: Record<string, unknown>, path: string) {
  const parts = path.split('.');
  let at: Record<string, unknown> | undefined = target;
  for (const part of parts.slice(0, -1)) at = at?.[part] as Record<string, unknown> | undefined;
  if (at) delete at[parts.at(-1)!];
}

const ACTIVE = ['queued', 'running', 'waiting'];

/** The executor's writes of a decision, on a copy of the world (conditional as the executor's are); refused: Refused. */
function carryOut(given: World, decidedOn: JobDoc, decision: Decision, now: number): { world: World; follow: FollowUp[] } {
  const world = structuredClone(given);
  const { job } = world;
  const follow: FollowUp[] = [];
  if (decision.variables) job.variables = structuredClone(decision.variables);
  for (const write of decision.writes) {
    switch (write.kind) {
      case 'insert': {
        const ids = write.records.map((r) => r._id);
        expect(new Set(ids).size, `one decision's records share an id: ${ids.join(', ')}`).toBe(ids.length);
        for (const record of write.records) {
          const known = world.records[record._id];
          if (known) expect([known.taskId, known.iteration], `record id ${record._id} collides`).toEqual([record.taskId, record.iteration]);
          else world.records[record._id] = structuredClone(record);
        }
        break;
      }
      case 'fail':
        if (job.status === decidedOn.status) Object.assign(job, { status: 'error', error: write.error });
        break;
      case 'complete':
        if (job.status === 'running' || job.status === 'paused') Object.assign(job, { status: 'complete', reachedEnd: { from: write.end.from, iteration: write.end.iteration } });
        break;
      case 'child':
        throw new Error('no child jobs in these workflows');
      case 'op-cancel':
        if (job.status !== write.from) throw new Refused('changed meanwhile');
        job.status = 'canceled';
        for (const r of Object.values(world.records)) if (ACTIVE.includes(r.status)) r.status = 'canceled';
        break;
      case 'op-pause':
        if (job.status === 'running') job.status = 'paused';
        break;
      case 'op-resume':
        if (job.status === 'paused') job.status = 'running';
        follow.push({ kind: 'advance' });
        break;
      case 'op-retry': {
        const record = world.records[write.record._id];
        if (write.variablesSet) for (const [path, value] of Object.entries(write.variablesSet)) setPath(job, path, value);
        if (record?.status !== 'error') throw new Refused('changed meanwhile');
        Object.assign(record, { status: 'queued', queuedAt: now }, write.incomingOverride ? { incomingOverride: write.incomingOverride } : {});
        for (const field of ['finishState', 'error', 'outgoing', 'jobVariables', 'advanced', 'metrics.end_time']) unsetPath(record, field);
        if (write.reopen && job.status === 'error') {
          job.status = 'running';
          delete job.error;
        }
        break;
      }
      case 'op-finish': {
        const record = world.records[write.record._id];
        if (record?.status !== 'waiting') throw new Refused('changed meanwhile');
        for (const [path, value] of Object.entries(write.fields)) setPath(record, path, structuredClone(value));
        if (write.claimed) delete world.claims[record._id];
        follow.push({ kind: 'ended', recordId: record._id });
        break;
      }
      case 'op-claim': {
        const held = world.claims[write.claim._id];
        if (write.replaces !== undefined ? held?.assignee !== write.replaces : held) throw new Refused('claimed meanwhile');
        world.claims[write.claim._id] = { ...write.claim };
        break;
      }
      case 'op-release':
        if (world.claims[write.recordId]?.assignee === write.assignee) delete world.claims[write.recordId];
        break;
      case 'history': {
        const known = world.history[write.entry._id];
        if (known) expect(known, `history id ${write.entry._id} collides`).toEqual(write.entry);
        else world.history[write.entry._id] = structuredClone(write.entry);
        break;
      }
    }
  }
  return { world, follow };
}

type Step =
  | { kind: 'end'; pick: number; state: FinishState; delivery: 'once' | 'twice' | 'dropped' }
  | { kind: 'recover'; reversed: boolean }
  | { kind: 'advance' }
  | { kind: 'operator'; action: 'cancel' | 'pause' | 'resume' }
  | { kind: 'retry' | 'finish'; pick: number; state: FinishState; who: string }
  | { kind: 'claim' | 'release' | 'take-over'; pick: number; who: string };

const who = fc.constantFrom('ana', 'bob');
const state = fc.constantFrom<FinishState>('success', 'success', 'failure', 'error');
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('end' as const), pick: fc.nat(), state, delivery: fc.constantFrom('once' as const, 'twice' as const, 'dropped' as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('recover' as const), reversed: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('advance' as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('operator' as const), action: fc.constantFrom('cancel' as const, 'pause' as const, 'resume' as const, 'resume' as const) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constantFrom('retry' as const, 'finish' as const), pick: fc.nat(), state, who }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('claim' as const, 'release' as const, 'take-over' as const), pick: fc.nat(), who }) },
);

const isRefusal = (error: unknown) => error instanceof DomainError;

class Simulation {
  now = 1_700_000_000_000;
  world: World;
  decisions = 0;

  constructor(shape: Pick<JobDoc, 'tasks' | 'transitions'>) {
    const tasks = { workflow_start: { name: 'workflow_start' }, workflow_end: { name: 'workflow_end' }, ...shape.tasks };
    const job: JobDoc = { _id: 'j1', name: 'wf', status: 'running', variables: {}, metrics: { start_time: this.now, user: 'ana' }, children: [], tasks, transitions: shape.transitions, last_updated: this.now };
    this.world = { job, records: {}, claims: {}, history: {} };
    this.deliver({ kind: 'started' });
  }

  private get records() {
    return Object.values(this.world.records).sort((a, b) => a.queuedAt - b.queuedAt || a._id.localeCompare(b._id));
  }

  /** Decides the event on the world as it is, carries it out, checks that carrying it out again changes nothing, then what follows. */
  deliver(event: JobEvent) {
    this.now += 1000;
    const { job } = this.world;
    const claims = new Map(Object.entries(this.world.claims));
    let decision: Decision;
    try {
      decision = decide({ job: structuredClone(job), records: structuredClone(this.records), event, now: this.now, claims });
    } catch (error) {
      if (!isRefusal(error)) throw error;
      return;
    }
    this.decisions++;
    let done: ReturnType<typeof carryOut>;
    try {
      done = carryOut(this.world, job, decision, this.now);
    } catch (error) {
      if (error instanceof Refused) return;
      throw error;
    }
    // The same decision carried out again (a retried unit of work, a repeated delivery): nothing changes.
    try {
      expect(carryOut(done.world, job, decision, this.now).world).toEqual(done.world);
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
    }
    this.world = done.world;
    if (event.kind === 'task-ended') this.world.records[event.record._id]!.advanced = true;
    for (const next of done.follow) {
      if (next.kind === 'advance') this.deliver({ kind: 'advance' });
      else this.ended(next.recordId);
    }
  }

  /** A record ended: its job advanced, unless it was already (the executor's `advanced` gate). */
  ended(recordId: string) {
    const record = this.world.records[recordId];
    if (record?.advanced !== false) return;
    this.deliver({ kind: 'task-ended', record: structuredClone(record) });
  }

  /** A queued task of a running job ends in `finish` (written as the worker writes it, not yet advanced). */
  end(pick: number, finish: FinishState): string | undefined {
    if (this.world.job.status !== 'running') return undefined;
    const queued = this.records.filter((r) => r.status === 'queued');
    const record = queued[pick % Math.max(queued.length, 1)];
    if (!record) return undefined;
    const fields = endFields({ str: 'x' }, { state: finish, outgoing: {}, ...(finish === 'error' ? { error: 'boom' } : {}) }, this.now);
    for (const [path, value] of Object.entries(fields)) setPath(record, path, value);
    return record._id;
  }

  private manualRecord(pick: number) {
    const records = this.records.filter((r) => r.type === 'manual');
    return records[pick % Math.max(records.length, 1)];
  }

  run(s: Step) {
    switch (s.kind) {
      case 'end': {
        const id = this.end(s.pick, s.state);
        if (!id || s.delivery === 'dropped') return;
        this.ended(id);
        // Delivered again: the record says it was advanced, and the executor goes no further.
        if (s.delivery === 'twice') this.deliver({ kind: 'task-ended', record: structuredClone(this.world.records[id]!) });
        return;
      }
      case 'recover': {
        // The sweeper: every ended record not advanced, in either order.
        const pending = this.records.filter((r) => r.advanced === false).map((r) => r._id);
        for (const id of s.reversed ? pending.reverse() : pending) this.ended(id);
        return;
      }
      case 'advance':
        return this.deliver({ kind: 'advance' });
      case 'operator':
        return this.deliver({ kind: 'operator', action: { kind: s.action } });
      case 'retry': {
        const ids = Object.keys(this.world.job.tasks);
        const taskId = ids[s.pick % ids.length]!;
        const action: OperatorAction = s.pick % 3 === 0 ? { kind: 'retry', taskId, changes: { variables: { v: s.pick } }, operator: s.who } : { kind: 'retry', taskId };
        return this.deliver({ kind: 'operator', action });
      }
      case 'finish': {
        const record = this.manualRecord(s.pick);
        return this.deliver({ kind: 'operator', action: { kind: 'finish', taskId: record?.taskId ?? 'm', values: {}, state: s.state === 'error' ? 'success' : s.state, operator: s.who } });
      }
      default: {
        const record = this.manualRecord(s.pick);
        return this.deliver({ kind: 'operator', action: { kind: s.kind, recordId: record?._id ?? 'j1:m:0', operator: s.who } });
      }
    }
  }

  /** Ends or waits: a running job has something queued, waiting, or ended and not yet advanced. */
  checkMoving(context: string) {
    if (this.world.job.status !== 'running') return;
    const moving = this.records.some((r) => ACTIVE.includes(r.status) || r.advanced === false);
    expect(moving, `${context}: the job runs with nothing to move it: ${JSON.stringify(this.records.map((r) => [r._id, r.status, r.finishState, r.advanced]))}`).toBe(true);
  }

  /** Nothing more goes wrong: what was dropped is recovered, and every queued task runs to success. */
  settle() {
    for (let round = 0; round < 200; round++) {
      const pending = this.records.find((r) => r.advanced === false);
      if (pending) {
        this.ended(pending._id);
        continue;
      }
      const id = this.end(0, 'success');
      if (!id) return;
      this.ended(id);
    }
    throw new Error('the job did not settle in 200 rounds');
  }
}

describe('the decision core under random event sequences', () => {
  it('never decides a write twice, never reuses a record id for another task, and every job ends or waits', () => {
    fc.assert(
      fc.property(fc.constantFrom(...WORKFLOWS.keys()), fc.array(step, { maxLength: 40 }), (shape, steps) => {
        const sim = new Simulation(WORKFLOWS[shape]!);
        for (const [i, s] of steps.entries()) {
          sim.run(s);
          sim.checkMoving(`after step ${i} (${JSON.stringify(s)})`);
        }
        sim.settle();
        const { job } = sim.world;
        const waits = Object.values(sim.world.records).some((r) => r.status === 'waiting');
        expect(['complete', 'canceled', 'error', 'paused'].includes(job.status) || waits, `the job is ${job.status} with nothing left to run and no task waiting`).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('lets the sequences reach every ending (the generator is not stuck on one path)', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(fc.constantFrom(...WORKFLOWS.keys()), fc.array(step, { maxLength: 40 }), (shape, steps) => {
        const sim = new Simulation(WORKFLOWS[shape]!);
        for (const s of steps) sim.run(s);
        sim.settle();
        const { status } = sim.world.job;
        seen.add(status === 'running' ? 'waits for an operator' : status);
        if (Object.values(sim.world.history).some((h) => h.event === 'task-taken-over')) seen.add('taken-over');
      }),
      { numRuns: 300 },
    );
    expect([...seen].sort()).toEqual(['canceled', 'complete', 'error', 'paused', 'taken-over', 'waits for an operator']);
  });
});
