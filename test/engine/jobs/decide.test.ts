// The engine's decision core on its own: a job, its task records and an event in,
// the writes to make out. No store, no clock: each case builds the records a job
// would have and reads the decision.
import { describe, expect, it } from 'vitest';
import { decide, type Decision, type JobEvent } from '../../../core/engine/jobs/decide';
import { ConsoleError, DomainError } from '../../../core/errors';
import { boundaryRecord, recordId, taskRecord } from '../../../core/engine/jobs/records';
import type { JobDoc, TaskDefinition } from '../../../core/engine/jobs/types';
import type { TaskRecord } from '../../../core/engine/queue/queue';

const NOW = 1_700_000_000_000;
const upper: TaskDefinition = { name: 'toUpperCase', app: 'WorkFlowEngine', type: 'automatic', variables: { incoming: { str: '$var.job.text' }, outgoing: { uppercaseString: '$var.job.result' } } };

function job(overrides: Partial<JobDoc> = {}): JobDoc {
  return {
    _id: 'j1',
    name: 'wf',
    status: 'running',
    variables: { text: 'abc' },
    metrics: { start_time: NOW - 1000, user: 'ops' },
    children: [],
    tasks: { workflow_start: { name: 'workflow_start' }, workflow_end: { name: 'workflow_end' }, up: upper },
    transitions: { workflow_start: { up: { type: 'standard', state: 'success' } }, up: { workflow_end: { type: 'standard', state: 'success' } } },
    last_updated: NOW - 1000,
    ...overrides,
  };
}

const start = (j: JobDoc) => boundaryRecord(j._id, { taskId: 'workflow_start', iteration: 0, from: [] }, NOW - 900);

/** The record of `taskId` as it ended. */
function ended(j: JobDoc, taskId: string, fields: Partial<TaskRecord>): TaskRecord {
  const from = [recordId(j._id, 'workflow_start', 0)];
  return { ...taskRecord(j, { taskId, iteration: 0, from }, j.tasks[taskId] ?? { name: taskId }, NOW - 500), status: 'complete', finishState: 'success', advanced: false, ...fields };
}

const run = (j: JobDoc, records: TaskRecord[], event: JobEvent): Decision => decide({ job: j, records, event, now: NOW });
const kinds = (d: Decision) => d.writes.map((w) => w.kind);

describe('decide: a job started', () => {
  it('writes its workflow_start record with its first task queued, in one call the worker may take a task from', () => {
    const d = run(job(), [], { kind: 'started' });
    expect(d.writes).toHaveLength(1);
    const [write] = d.writes;
    expect(write).toMatchObject({ kind: 'insert', handOff: true });
    if (write?.kind !== 'insert') throw new Error('not an insert');
    expect(write.records.map((r) => [r._id, r.status])).toEqual([
      ['j1:workflow_start:0', 'complete'],
      ['j1:up:0', 'queued'],
    ]);
    expect(write.records[1]).toMatchObject({ from: ['j1:workflow_start:0'], queuedAt: NOW, runAfter: NOW });
  });

  it('gives the same records for the same job (ids are deterministic), and changes nothing it is given', () => {
    const j = job();
    const copy = structuredClone(j);
    expect(run(j, [], { kind: 'started' })).toEqual(run(j, [], { kind: 'started' }));
    expect(j).toEqual(copy);
  });

  it('queues a paused job\'s first task to wait', () => {
    const d = run(job({ status: 'paused' }), [], { kind: 'started' });
    const write = d.writes[0];
    if (write?.kind !== 'insert') throw new Error('not an insert');
    expect(write.records[1]?.runAfter).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe('decide: a task ended', () => {
  it('completes the job with the variables the last task wrote', () => {
    const j = job();
    const up = ended(j, 'up', { outgoing: { uppercaseString: 'ABC' } });
    const d = run(j, [start(j), up], { kind: 'task-ended', record: up });
    expect(d.variablesSet).toEqual({ 'variables.result': 'ABC', last_updated: NOW });
    expect(d.variables).toEqual({ text: 'abc', result: 'ABC' });
    expect(kinds(d)).toEqual(['complete']);
    expect(d.writes[0]).toMatchObject({ end: { _id: 'j1:workflow_end:0', from: ['j1:up:0'], status: 'complete' } });
  });

  it('queues the next task, whose manual incoming reads the variables just written', () => {
    const ask: TaskDefinition = { name: 'ViewData', app: 'WorkFlowEngine', type: 'manual', variables: { incoming: { body: '$var.job.result' }, outgoing: {} } };
    const j = job({
      tasks: { ...job().tasks, ask },
      transitions: { workflow_start: { up: { type: 'standard', state: 'success' } }, up: { ask: { type: 'standard', state: 'success' } }, ask: { workflow_end: { type: 'standard', state: 'success' } } },
    });
    const up = ended(j, 'up', { outgoing: { uppercaseString: 'ABC' } });
    const d = run(j, [start(j), up], { kind: 'task-ended', record: up });
    expect(kinds(d)).toEqual(['insert']);
    const write = d.writes[0];
    if (write?.kind !== 'insert') throw new Error('not an insert');
    expect(write.records).toHaveLength(1);
    expect(write.records[0]).toMatchObject({ _id: 'j1:ask:0', status: 'waiting', incoming: { body: 'ABC' } });
  });

  it('runs a revert loop again as a new iteration', () => {
    const j = job({
      transitions: { workflow_start: { up: { type: 'standard', state: 'success' } }, up: { up: { type: 'revert', state: 'failure' }, workflow_end: { type: 'standard', state: 'success' } } },
    });
    const up = ended(j, 'up', { finishState: 'failure' });
    const d = run(j, [start(j), up], { kind: 'task-ended', record: up });
    const write = d.writes[0];
    if (write?.kind !== 'insert') throw new Error('not an insert');
    expect(write.records.map((r) => [r._id, r.from])).toEqual([['j1:up:1', ['j1:up:0']]]);
  });

  it('stops the job in error naming a task that failed with no error transition', () => {
    const j = job();
    const up = ended(j, 'up', { status: 'error', finishState: 'error', error: 'boom' });
    const d = run(j, [start(j), up], { kind: 'task-ended', record: up });
    expect(d.writes).toEqual([{ kind: 'fail', error: { task: 'up', message: 'task up (toUpperCase) failed with no error transition: boom' } }]);
  });

  it('runs the workflow\'s errorHandler first, and is not handed to the worker', () => {
    const j = job({ errorHandler: { name: 'toLowerCase', app: 'WorkFlowEngine', type: 'automatic', variables: { incoming: { str: 'x' }, outgoing: {} } } });
    const up = ended(j, 'up', { status: 'error', finishState: 'error', error: 'boom' });
    const d = run(j, [start(j), up], { kind: 'task-ended', record: up });
    expect(d.writes).toHaveLength(1);
    expect(d.writes[0]).toMatchObject({ kind: 'insert', handOff: false, records: [{ _id: 'j1:errorHandler:0', status: 'queued' }] });
  });

  it('stops a job that cannot reach workflow_end', () => {
    const j = job({ transitions: { workflow_start: { up: { type: 'standard', state: 'success' } }, up: { workflow_end: { type: 'standard', state: 'success' } } } });
    const up = ended(j, 'up', { finishState: 'failure' });
    const d = run(j, [start(j), up], { kind: 'task-ended', record: up });
    expect(d.writes).toEqual([{ kind: 'fail', error: { task: 'workflow_end', message: 'the job cannot reach workflow_end: no transition leads on from up (failure)' } }]);
  });

  it('writes only the variables when the job ended meanwhile', () => {
    const j = job({ status: 'canceled' });
    const up = ended(j, 'up', { outgoing: { uppercaseString: 'ABC' } });
    const d = run(j, [start(j), up], { kind: 'task-ended', record: up });
    expect(d.writes).toEqual([]);
    expect(d.variablesSet).toMatchObject({ 'variables.result': 'ABC' });
  });
});

describe('decide: a child job ended', () => {
  const childJob: TaskDefinition = { name: 'childJob', app: 'WorkFlowEngine', type: 'operation', variables: { incoming: { workflow: 'child' }, outgoing: {} } };
  const parent = job({ tasks: { ...job().tasks, kid: childJob } });
  const waiting = (fields: Partial<TaskRecord>) => ({ ...ended(parent, 'kid', {}), status: 'waiting' as const, finishState: undefined, advanced: undefined, childJob: 'j1:kid:0:1', ...fields });
  const child = (id: string, status: JobDoc['status']) => job({ _id: id, name: 'child', status, variables: { out: 1 }, parent: { job: 'j1', task: 'kid', record: 'j1:kid:0' } });

  it('ends the waiting task with the child\'s variables as job_details', () => {
    const d = run(parent, [], { kind: 'child-ended', child: child('j1:kid:0:1', 'complete'), waiting: waiting({}) });
    expect(d.writes).toEqual([
      { kind: 'child', waiting: expect.objectContaining({ _id: 'j1:kid:0' }), step: { kind: 'end', outcome: { state: 'success', outgoing: { job_details: { _id: 'j1:kid:0:1', status: 'complete', out: 1 } } } } },
    ]);
  });

  it('starts a sequential loop\'s next child with its element\'s variables', () => {
    const loop = { type: 'sequential' as const, ids: ['j1:kid:0:1:0', 'j1:kid:0:1:1'], variables: [{ n: 0 }, { n: 1 }] };
    const d = run(parent, [], { kind: 'child-ended', child: child('j1:kid:0:1:0', 'complete'), waiting: waiting({ loop, incoming: { workflow: 'child' } }) });
    expect(d.writes[0]).toMatchObject({ kind: 'child', step: { kind: 'start-next', index: 1, start: { id: 'j1:kid:0:1:1', workflow: 'child', variables: { n: 1 }, user: 'ops', parent: { job: 'j1', task: 'kid', record: 'j1:kid:0' } } } });
  });

  it('does nothing for a task that is no longer waiting', () => {
    const d = run(parent, [], { kind: 'child-ended', child: child('j1:kid:0:1', 'complete'), waiting: waiting({ status: 'canceled' }) });
    expect(d.writes).toEqual([{ kind: 'child', waiting: expect.anything(), step: { kind: 'none' } }]);
  });
});

describe('decide: an operator acted', () => {
  it('refuses to cancel a job that ended, with a domain error (not-allowed: the executor answers it 409)', () => {
    const refusal = (() => {
      try {
        run(job({ status: 'complete' }), [], { kind: 'operator', action: { kind: 'cancel' } });
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal).toMatchObject({ fault: 'not-allowed', message: 'job j1 is already complete' });
    expect(refusal).not.toBeInstanceOf(ConsoleError);
  });

  it('queues a task in error again, and runs the job again when it stopped for that task alone', () => {
    const j = job({ status: 'error' });
    const up = ended(j, 'up', { status: 'error', finishState: 'error', error: 'boom' });
    const d = run(j, [start(j), up], { kind: 'operator', action: { kind: 'retry', taskId: 'up' } });
    expect(d.writes).toEqual([{ kind: 'op-retry', record: up, paused: false, reopen: true }]);
  });

  it('finishes a waiting manual task with the operator\'s values', () => {
    const ask: TaskDefinition = { name: 'ViewData', app: 'WorkFlowEngine', type: 'manual', variables: { incoming: {}, outgoing: {} } };
    const j = job({ tasks: { ...job().tasks, ask } });
    const record = { ...ended(j, 'ask', {}), status: 'waiting' as const, finishState: undefined, advanced: undefined, incoming: { body: 'x' } };
    const d = run(j, [start(j), record], { kind: 'operator', action: { kind: 'finish', taskId: 'ask', values: { ok: true }, state: 'success' } });
    expect(d.writes).toEqual([
      { kind: 'op-finish', record, claimed: false, fields: expect.objectContaining({ status: 'complete', finishState: 'success', outgoing: { ok: true }, incoming: { body: 'x' }, 'metrics.end_time': NOW, advanced: false }) },
      { kind: 'history', entry: expect.objectContaining({ event: 'task-finished', message: 'task ask finished in success by operator', taskName: 'ViewData', workflow: 'wf' }) },
    ]);
  });

  it('refuses a finish by anyone but the operator who claimed the task (409 naming them), and lets them finish it', () => {
    const ask: TaskDefinition = { name: 'ViewData', app: 'WorkFlowEngine', type: 'manual', variables: { incoming: {}, outgoing: {} } };
    const j = job({ tasks: { ...job().tasks, ask } });
    const record = { ...ended(j, 'ask', {}), status: 'waiting' as const, finishState: undefined, advanced: undefined };
    const claims = new Map([[record._id, { _id: record._id, assignee: 'ana', claimedAt: NOW - 10 }]]);
    const finish = (operator: string) => decide({ job: j, records: [start(j), record], event: { kind: 'operator', action: { kind: 'finish', taskId: 'ask', values: {}, state: 'success', operator } }, now: NOW, claims });
    expect(() => finish('bob')).toThrow(expect.objectContaining({ fault: 'not-allowed', message: expect.stringContaining('claimed by ana'), details: { assignee: 'ana' } }));
    expect(finish('ana').writes[0]).toMatchObject({ kind: 'op-finish', claimed: true });
  });

  it('takes a claimed task over, recording from whom in the job\'s history; a claim of a task another holds is refused', () => {
    const ask: TaskDefinition = { name: 'ViewData', app: 'WorkFlowEngine', type: 'manual', variables: { incoming: {}, outgoing: {} } };
    const j = job({ tasks: { ...job().tasks, ask } });
    const record = { ...ended(j, 'ask', {}), status: 'waiting' as const, finishState: undefined, advanced: undefined };
    const claims = new Map([[record._id, { _id: record._id, assignee: 'ana', claimedAt: NOW - 10 }]]);
    const act = (kind: 'claim' | 'take-over' | 'release') => decide({ job: j, records: [start(j), record], event: { kind: 'operator', action: { kind, recordId: record._id, operator: 'bob' } }, now: NOW, claims });
    expect(() => act('claim')).toThrow(expect.objectContaining({ fault: 'not-allowed', message: expect.stringContaining('claimed by ana') }));
    expect(() => act('release')).toThrow(expect.objectContaining({ fault: 'not-allowed' }));
    expect(act('take-over').writes).toEqual([
      { kind: 'op-claim', claim: { _id: record._id, assignee: 'bob', claimedAt: NOW }, replaces: 'ana' },
      { kind: 'history', entry: expect.objectContaining({ event: 'task-taken-over', message: 'bob took over task ask from ana', from: 'ana' }) },
    ]);
  });

  it('refuses to finish a task that is not waiting for an operator', () => {
    const j = job();
    const up = ended(j, 'up', {});
    expect(() => run(j, [start(j), up], { kind: 'operator', action: { kind: 'finish', taskId: 'up', values: {}, state: 'success' } })).toThrow(/only a manual task waiting for an operator can be finished/);
  });
});

describe('decide: a timer fired', () => {
  it('goes on as after the end the timer held: the outgoing values written, workflow_end reached', () => {
    const wait: TaskDefinition = { name: 'delay', app: 'WorkFlowEngine', type: 'automatic', variables: { incoming: { time: 5 }, outgoing: { time_in_milliseconds: '$var.job.waited' } } };
    const j = job({ tasks: { workflow_start: { name: 'workflow_start' }, workflow_end: { name: 'workflow_end' }, up: wait } });
    const fired = ended(j, 'up', { outgoing: { time_in_milliseconds: 5000 } });
    const d = run(j, [start(j), fired], { kind: 'timer-fired', record: fired });
    expect(d.variables).toMatchObject({ waited: 5000 });
    expect(kinds(d)).toEqual(['complete']);
    // The same records and event decide the same again.
    expect(run(j, [start(j), fired], { kind: 'timer-fired', record: fired })).toEqual(d);
  });
});
