// The job runner with the real built-in task library and a worker, on the embedded store.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../core/engine/index';
import type { JobDoc } from '../../../core/engine/jobs/types';
import type { TaskRecord } from '../../../core/engine/queue/queue';
import { UNDEFINED_MARKER } from '../../../core/values/undefined-codec';
import { tempEmbeddedStore, waitFor, workflow, type TempStore } from '../queue/support';
import { saveWorkflow } from '../../../core/engine/workflow/repository';
import { jobErrorText } from '../../../core/engine/jobs/job-error';

let temp: TempStore;
let engine: Engine;
beforeEach(async () => {
  temp = await tempEmbeddedStore();
  engine = await new Engine({ store: temp.store, serverId: 'test', serverName: 'test', processTasksOnStart: true, worker: { idleMs: 10 } }).open();
});
afterEach(async () => {
  await engine.close();
  await temp.dispose();
});

const addWorkflow = (wf: object) => temp.store.collection('workflows').insertOne(wf as never);

async function settle(id: string, until: (job: JobDoc) => boolean = (j) => j.status !== 'running'): Promise<JobDoc> {
  return waitFor(`job ${id} to settle`, async () => {
    const job = await engine.runner.job(id);
    return job && until(job) ? job : undefined;
  });
}

async function records(jobId: string): Promise<Map<string, TaskRecord[]>> {
  const map = new Map<string, TaskRecord[]>();
  for (const r of await engine.runner.records(jobId)) map.set(r.taskId, [...(map.get(r.taskId) ?? []), r]);
  return map;
}

const upper = (str: string, out: unknown = null) => ({ name: 'toUpperCase', variables: { incoming: { str }, outgoing: { uppercaseString: out } } });

describe('job runner', () => {
  it('runs the tasks along the transitions, passing values by $var.job and $var.<task>', async () => {
    await addWorkflow(
      workflow(
        'chain',
        {
          up: upper('$var.job.name'),
          join: { name: 'concat', variables: { incoming: { str: '$var.up.uppercaseString', stringN: ['-', '$var.job.suffix'] }, outgoing: { combinedStrings: '$var.job.out' } } },
        },
        [['workflow_start', 'up'], ['up', 'join'], ['join', 'workflow_end']],
      ),
    );
    const job = await settle((await engine.runner.start('chain', { variables: { name: 'abc', suffix: 'z' } }))._id);
    expect(job.status).toBe('complete');
    expect(job.variables).toEqual({ _id: job._id, initiator: 'console', name: 'abc', suffix: 'z', out: 'ABC-z' });
    expect(job.metrics.end_time).toBeGreaterThanOrEqual(job.metrics.start_time);
  });

  it('a job of the string tasks match, search, normalize and trimStart passes their outgoing values on by the service\'s names', async () => {
    await addWorkflow(
      workflow(
        'strings',
        {
          trim: { name: 'trimStart', variables: { incoming: { str: '$var.job.text' }, outgoing: { trimmedStart: null } } },
          ports: { name: 'match', variables: { incoming: { str: '$var.trim.trimmedStart', regExp: '/\\d+/', flags: 'g' }, outgoing: { matches: '$var.job.ports' } } },
          at: { name: 'search', variables: { incoming: { str: '$var.trim.trimmedStart', regexp: 'ge-' }, outgoing: { index: '$var.job.at' } } },
          nfc: { name: 'normalize', variables: { incoming: { str: '$var.job.name', form: 'NFC' }, outgoing: { normalizedString: '$var.job.name' } } },
        },
        [['workflow_start', 'trim'], ['trim', 'ports'], ['ports', 'at'], ['at', 'nfc'], ['nfc', 'workflow_end']],
      ),
    );
    const job = await settle((await engine.runner.start('strings', { variables: { text: '   ge-0/0/12', name: 'Chloe\u0301' } }))._id);
    expect(job.status, jobErrorText(job)).toBe('complete');
    expect(job.variables).toMatchObject({ ports: ['0', '0', '12'], at: 0, name: 'Chlo\u00e9' });
  });

  it('starts the next job with a workflow saved in its container at once (the write noted, as the workflows service does)', async () => {
    await engine.worker.stop();
    await saveWorkflow(temp.store, workflow('edited', { up: upper('a') }, [['workflow_start', 'up'], ['up', 'workflow_end']]) as never);
    engine.workflowWrites.note();
    expect(Object.keys((await engine.runner.start('edited')).tasks)).toContain('up');
    await saveWorkflow(temp.store, workflow('edited', { low: upper('b') }, [['workflow_start', 'low'], ['low', 'workflow_end']]) as never, { overwrite: true });
    engine.workflowWrites.note();
    const tasks = Object.keys((await engine.runner.start('edited')).tasks);
    expect(tasks).toContain('low');
    expect(tasks).not.toContain('up');
  });

  it("claims a job's first task for this process's worker in the write that queues it", async () => {
    await addWorkflow(workflow('eager', { up: upper('a') }, [['workflow_start', 'up'], ['up', 'workflow_end']]));
    const job = await engine.runner.start('eager');
    const first = (await engine.runner.records(job._id)).find((r) => r.taskId === 'up')!;
    // Written claimed: claimed when queued, by this worker, at its first attempt.
    expect(first.metrics.claimed_at).toBe(first.queuedAt);
    expect(first.workerId).toBe(engine.worker.workerId);
    expect(first.attempt).toBe(1);
    expect((await settle(job._id)).status).toBe('complete');
    // A worker that is stopped takes none: the task is queued for any worker.
    await engine.worker.stop();
    const queued = (await engine.runner.records((await engine.runner.start('eager'))._id)).find((r) => r.taskId === 'up')!;
    expect(queued.status).toBe('queued');
    expect(queued.workerId).toBeUndefined();
  });

  it('an idle worker runs the tasks its own advance queued without waiting for its next poll', async () => {
    // The worker polls once a minute: only being told of the queued task (runner.onQueued) runs `b` in time.
    await engine.close();
    engine = await new Engine({ store: temp.store, serverId: 'slow-poll', serverName: 'slow-poll', processTasksOnStart: true, worker: { idleMs: 60_000, firstIdleMs: 60_000 } }).open();
    await addWorkflow(workflow('fork', { first: upper('a'), a: upper('b'), b: upper('c') }, [['workflow_start', 'first'], ['first', 'a'], ['first', 'b'], ['a', 'workflow_end'], ['b', 'workflow_end']]));
    const job = await engine.runner.start('fork');
    expect((await waitFor('the fork to complete', async () => {
      const j = await engine.runner.job(job._id);
      return j?.status === 'complete' && j;
    }, 10_000)).status).toBe('complete');
  });

  it('reads a job whose id was removed and used again with the workflow it was started with then', async () => {
    // The runner keeps each job's tasks and transitions (fixed at its start) and leaves them out of later reads.
    await engine.worker.stop();
    await addWorkflow(workflow('first', { up: upper('a') }, [['workflow_start', 'up'], ['up', 'workflow_end']]));
    await addWorkflow(workflow('second', { low: { name: 'toLowerCase', variables: { incoming: { str: 'A' } } } }, [['workflow_start', 'low'], ['low', 'workflow_end']]));
    await engine.runner.start('first', { id: 'again' });
    expect(Object.keys((await engine.runner.job('again'))!.tasks)).toContain('up');
    await temp.store.collection('jobs').deleteOne({ _id: 'again' });
    await temp.store.collection('tasks').deleteMany({ jobId: 'again' });
    // Started again by another server: this runner learns of it only by reading it.
    const other = new Engine({ store: temp.store, serverId: 'other', serverName: 'other', processTasksOnStart: false });
    await other.runner.start('second', { id: 'again' });
    await other.close();
    const job = (await engine.runner.job('again'))!;
    expect(job.name).toBe('second');
    expect(Object.keys(job.tasks)).toContain('low');
    expect(Object.keys(job.tasks)).not.toContain('up');
    expect(Object.keys(job.transitions)).toContain('low');
  });

  it('forks in parallel; a join waits for every branch that can still fire, and an untaken path never blocks it', async () => {
    // a and b run in parallel; check ends in failure so `never` is not taken; join waits for a, b and check.
    await addWorkflow(
      workflow(
        'fork',
        {
          a: upper('$var.job.x'),
          b: { name: 'delay', variables: { incoming: { time: 0.2 }, outgoing: {} } },
          check: { name: 'evaluation', variables: { incoming: { all_true_flag: true, evaluation_groups: [{ all_true_flag: true, evaluations: [{ operand_1: 1, operator: '==', operand_2: 2 }] }] }, outgoing: {} } },
          never: upper('never'),
          join: { name: 'stringLength', variables: { incoming: { str: '$var.a.uppercaseString' }, outgoing: { length: '$var.job.len' } } },
        },
        [
          ['workflow_start', 'a'],
          ['workflow_start', 'b'],
          ['workflow_start', 'check'],
          ['check', 'never', 'success'],
          ['check', 'join', 'failure'],
          ['never', 'join'],
          ['a', 'join'],
          ['b', 'join'],
          ['join', 'workflow_end'],
        ],
      ),
    );
    const job = await settle((await engine.runner.start('fork', { variables: { x: 'four' } }))._id);
    expect(job.status, jobErrorText(job)).toBe('complete');
    expect(job.variables.len).toBe(4);
    const r = await records(job._id);
    expect(r.get('join')).toHaveLength(1);
    expect(r.has('never')).toBe(false);
    expect(r.get('check')![0]!.finishState).toBe('failure');
    // The join started only after the slow branch ended.
    expect(r.get('join')![0]!.queuedAt).toBeGreaterThanOrEqual(r.get('b')![0]!.metrics.end_time!);
  });

  it('codePointAt out of range takes the error transition', async () => {
    await addWorkflow(
      workflow(
        'cp',
        {
          cp: { name: 'codePointAt', variables: { incoming: { str: 'ab', pos: 9 }, outgoing: { codePointValue: '$var.job.cp' } } },
          recover: upper('recovered', '$var.job.note'),
        },
        [['workflow_start', 'cp'], ['cp', 'workflow_end'], ['cp', 'recover', 'error'], ['recover', 'workflow_end']],
      ),
    );
    const job = await settle((await engine.runner.start('cp'))._id);
    expect(job.status).toBe('complete');
    expect(job.variables.note).toBe('RECOVERED');
    const cp = (await records(job._id)).get('cp')![0]!;
    expect(cp).toMatchObject({ status: 'error', finishState: 'error' });
    expect(cp.error).toMatch(/pos/);
  });

  it("a task erroring with no error transition puts the job in error; the operator's retry runs it again", async () => {
    await addWorkflow(workflow('fails', { cp: { name: 'codePointAt', variables: { incoming: { str: '$var.job.s', pos: 1 }, outgoing: {} } } }, [['workflow_start', 'cp'], ['cp', 'workflow_end']]));
    const started = await engine.runner.start('fails', { variables: { s: 'x' } });
    const job = await settle(started._id);
    expect(job.status).toBe('error');
    expect(job.error).toEqual([{ task: 'cp', message: expect.stringMatching(/task cp \(codePointAt\) failed with no error transition/), timestamp: expect.any(Number) }]);
    // Same input, same error: the retry runs the task again and the job stops again.
    await engine.runner.retryTask(job._id, 'cp');
    const again = await settle(job._id, (j) => j.status === 'error' && j.last_updated > job.last_updated);
    const cp = (await records(job._id)).get('cp')!;
    expect(cp).toHaveLength(1);
    expect(cp[0]!.attempt).toBe(2);
    expect(again.status).toBe('error');
  });

  it('stores undefined as the marker and reads it back as undefined; null stays null', async () => {
    await addWorkflow(workflow('vals', { up: upper('$var.job.s', '$var.job.r') }, [['workflow_start', 'up'], ['up', 'workflow_end']]));
    const started = await engine.runner.start('vals', { variables: { s: 'a', gone: undefined, none: null, nested: { list: [1, undefined, null] } } });
    const raw = await temp.store.collection('jobs').findOne({ _id: started._id });
    expect(raw!.variables).toMatchObject({ gone: UNDEFINED_MARKER, none: null, nested: { list: [1, UNDEFINED_MARKER, null] } });
    await settle(started._id);
    const { decodeVariables } = await import('../../../core/values/undefined-codec');
    const read = decodeVariables((await engine.runner.job(started._id))!.variables);
    expect('gone' in read && read.gone === undefined).toBe(true);
    expect(read.none).toBeNull();
    expect(read.nested).toEqual({ list: [1, undefined, null] });
  });

  it('refuses the marker string as a variable and variables that do not fit the inputSchema', async () => {
    await addWorkflow(workflow('typed', {}, [['workflow_start', 'workflow_end']], { inputSchema: { type: 'object', required: ['device'], properties: { device: { type: 'string' } } } }));
    await expect(engine.runner.start('typed', { variables: { device: UNDEFINED_MARKER } })).rejects.toThrow(/options\.variables\.device is the reserved string/);
    await expect(engine.runner.start('typed', { variables: { device: 7 } })).rejects.toThrow(/variables\.device must be string/);
    await expect(engine.runner.start('typed', { variables: {} })).rejects.toThrow(/variables\.device is required/);
    await expect(engine.runner.start('nope')).rejects.toThrow(/no workflow named "nope"/);
    expect((await engine.runner.start('typed', { variables: { device: 'r1' } })).status).toBeDefined();
  });

  it('a manual task waits for an operator, who finishes it with values that flow on', async () => {
    await addWorkflow(
      workflow(
        'approve',
        { ask: { name: 'approve', type: 'manual', variables: { incoming: { question: '$var.job.q' }, outgoing: { answer: '$var.job.answer' } } }, up: upper('$var.ask.answer', '$var.job.loud') },
        [['workflow_start', 'ask'], ['ask', 'up'], ['up', 'workflow_end']],
      ),
    );
    const { _id } = await engine.runner.start('approve', { variables: { q: 'go?' } });
    const ask = await waitFor('the manual task', async () => (await records(_id)).get('ask')?.[0]);
    expect(ask).toMatchObject({ status: 'waiting', incoming: { question: 'go?' } });
    await expect(engine.runner.finishTask(_id, 'up', {})).rejects.toThrow(/has not run yet/);
    await engine.runner.finishTask(_id, 'ask', { answer: 'yes' });
    const job = await settle(_id);
    expect(job.status).toBe('complete');
    expect(job.variables).toMatchObject({ answer: 'yes', loud: 'YES' });
    await expect(engine.runner.finishTask(_id, 'ask', {})).rejects.toThrow(/job .* is complete/);
  });

  it('childJob starts a linked child (undefined arrives as null) and finishes when the child ends', async () => {
    await addWorkflow(workflow('child', { up: upper('$var.job.text', '$var.job.result') }, [['workflow_start', 'up'], ['up', 'workflow_end']]));
    await addWorkflow(
      workflow(
        'parent',
        {
          spawn: { name: 'childJob', variables: { incoming: { workflow: 'child', variables: { text: '$var.job.text', missing: '$var.job.nothing' } }, outgoing: { job_details: '$var.job.details' } } },
        },
        [['workflow_start', 'spawn'], ['spawn', 'workflow_end']],
      ),
    );
    const parent = await settle((await engine.runner.start('parent', { variables: { text: 'kid' } }))._id);
    expect(parent.status, jobErrorText(parent)).toBe('complete');
    expect(parent.children).toHaveLength(1);
    const child = (await engine.runner.job(parent.children[0]!))!;
    expect(child.parent).toMatchObject({ job: parent._id, task: 'spawn' });
    expect(child.status).toBe('complete');
    // undefined passed to a child job is null there, not the marker.
    // A child's id is an ObjectId, as the service's job ids are; its variables hold its _id and initiator.
    expect(child._id).toMatch(/^[0-9a-f]{24}$/);
    expect(child.variables).toEqual({ _id: child._id, initiator: 'console', text: 'kid', missing: null, result: 'KID' });
    // job_details is the child's job variables, as the exports query it (`createdCR.response.id`).
    expect(parent.variables.details).toEqual({ _id: child._id, initiator: 'console', status: 'complete', text: 'kid', missing: null, result: 'KID' });
  });

  it("a child job's error is the childJob task's error", async () => {
    await addWorkflow(workflow('bad-child', { cp: { name: 'codePointAt', variables: { incoming: { str: '', pos: 3 }, outgoing: {} } } }, [['workflow_start', 'cp'], ['cp', 'workflow_end']]));
    await addWorkflow(workflow('parent2', { spawn: { name: 'childJob', variables: { incoming: { workflow: 'bad-child', variables: {} }, outgoing: {} } } }, [['workflow_start', 'spawn'], ['spawn', 'workflow_end']]));
    const parent = await settle((await engine.runner.start('parent2'))._id);
    expect(parent.status).toBe('error');
    const spawn = (await records(parent._id)).get('spawn')![0]!;
    expect(spawn.status).toBe('error');
    expect(spawn.error).toMatch(/child job .* \(bad-child\) ended in error/);
  });

  it('pause holds the queued tasks, resume releases them, cancel ends the job and its tasks', async () => {
    await addWorkflow(
      workflow('slow', { wait: { name: 'delay', variables: { incoming: { time: 0.3 }, outgoing: {} } }, after: upper('x') }, [['workflow_start', 'wait'], ['wait', 'after'], ['after', 'workflow_end']]),
    );
    const { _id } = await engine.runner.start('slow');
    // The delay waits on a durable timer (its record queued for its due time, no slot held).
    await waitFor('the delay to start waiting', async () => ['running', 'queued'].includes((await records(_id)).get('wait')?.[0]?.status ?? '') && (await records(_id)).get('wait')![0]!.attempt > 0);
    await engine.runner.pause(_id);
    // Past the delay's due time, the paused job has not gone on: its next task is not run.
    await new Promise((r) => setTimeout(r, 600));
    expect(['queued', undefined]).toContain((await records(_id)).get('after')?.[0]?.status);
    expect((await engine.runner.job(_id))!.status).toBe('paused');
    await engine.runner.resume(_id);
    expect((await settle(_id)).status).toBe('complete');

    const second = await engine.runner.start('slow');
    const canceled = await engine.runner.cancel(second._id);
    expect(canceled.status).toBe('canceled');
    await new Promise((r) => setTimeout(r, 500));
    const all = [...(await records(second._id)).values()].flat().filter((r) => r.taskId !== 'workflow_start');
    expect(all.map((r) => r.status)).toEqual(['canceled']);
    await expect(engine.runner.resume(second._id)).rejects.toThrow(/only a paused job can be resumed/);
  });

  it('a loop runs a task again, as a new iteration', async () => {
    // count grows by one letter each time; query on the length ends the loop.
    await addWorkflow(
      workflow(
        'loop',
        {
          grow: { name: 'concat', variables: { incoming: { str: '$var.job.s', stringN: ['a'] }, outgoing: { combinedStrings: '$var.job.s' } } },
          enough: { name: 'evaluation', variables: { incoming: { all_true_flag: true, evaluation_groups: [{ all_true_flag: true, evaluations: [{ operand_1: '$var.job.s', operator: '==', operand_2: 'aaa' }] }] }, outgoing: {} } },
        },
        [['workflow_start', 'grow'], ['grow', 'enough'], ['enough', 'grow', 'failure'], ['enough', 'workflow_end', 'success']],
      ),
    );
    const job = await settle((await engine.runner.start('loop', { variables: { s: '' } }))._id);
    expect(job.status, jobErrorText(job)).toBe('complete');
    expect(job.variables.s).toBe('aaa');
    expect((await records(job._id)).get('grow')!.map((r) => r.iteration)).toEqual([0, 1, 2]);
  });
});
