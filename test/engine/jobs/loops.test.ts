// The runner with workflows shaped as the service exports them: revert loops,
// forEach, retrySettings, variables.error, errorHandler, childJob loops, ViewData,
// the transformation hook and object references, on the embedded store.
import { afterEach, describe, expect, it } from 'vitest';
import { Engine, type EngineOptions } from '../../../core/engine/index';
import { methodRunner } from '../../../core/engine/jobs/execute';
import type { JobDoc } from '../../../core/engine/jobs/types';
import type { TaskRecord } from '../../../core/engine/queue/queue';
import { tempEmbeddedStore, waitFor, type TempStore } from '../queue/support';
import { jobErrorText } from '../../../core/engine/jobs/job-error';

let temp: TempStore | undefined;
let engine: Engine | undefined;
async function open(extra: Partial<EngineOptions> = {}) {
  temp = await tempEmbeddedStore();
  engine = await new Engine({ store: temp.store, serverId: 'test', serverName: 'test', processTasksOnStart: true, worker: { idleMs: 10 }, ...extra }).open();
  return engine;
}
afterEach(async () => {
  await engine?.close();
  await temp?.dispose();
  engine = undefined;
  temp = undefined;
});

type T = Record<string, unknown>;
/** A workflow as exported: `[src, dst, state?, type?]` transitions, tasks with app/type/location. */
function wf(name: string, tasks: Record<string, T>, transitions: [string, string, string?, string?][], extra: T = {}) {
  const table: Record<string, Record<string, { type: string; state: string }>> = { workflow_end: {} };
  for (const [src, dst, state, type] of transitions) (table[src] ??= {})[dst] = { type: type ?? 'standard', state: state ?? 'success' };
  const full: Record<string, T> = { workflow_start: { name: 'workflow_start', groups: [], nodeLocation: { x: 0, y: 0 } }, workflow_end: { name: 'workflow_end', groups: [] } };
  for (const [id, task] of Object.entries(tasks)) full[id] = { app: 'WorkFlowEngine', type: 'automatic', location: 'Application', groups: [], actor: 'Pronghorn', scheduled: false, ...task };
  return { name, tasks: full, transitions: table, errorHandler: null, ...extra };
}
const add = (w: object) => temp!.store.collection('workflows').insertOne(w as never);
const settle = (id: string, until: (job: JobDoc) => boolean = (j) => j.status !== 'running') =>
  waitFor(`job ${id} to settle`, async () => {
    const job = await engine!.runner.job(id);
    return job && until(job) ? job : undefined;
  });
async function runs(jobId: string, taskId: string): Promise<TaskRecord[]> {
  return (await engine!.runner.records(jobId)).filter((r) => r.taskId === taskId).sort((a, b) => a.iteration - b.iteration);
}
const evaluation = (left: unknown, operator: string, right: unknown) => ({
  name: 'evaluation',
  type: 'operation',
  variables: { incoming: { all_true_flag: true, evaluation_groups: [{ all_true_flag: true, evaluations: [{ query: '', operand_1: left, operator, operand_2: right }] }] }, outgoing: { return_value: null } },
});

describe('revert transitions', () => {
  it('a polling loop runs again as new iterations until its own condition ends it, each iteration recorded', async () => {
    await open();
    // As in the AWS pre-builts: act, check, on failure wait and revert to act.
    await add(
      wf(
        'poll',
        {
          act: { name: 'push', variables: { incoming: { job_variable: 'attempts', item: '$var.job._id' }, outgoing: {} } },
          count: { name: 'arrayLength', variables: { incoming: { arr: '$var.job.attempts' }, outgoing: { length: '$var.job.count' } } },
          check: evaluation({ task: 'count', variable: 'length' }, '>=', { task: 'static', variable: 3 }),
          wait: { name: 'delay', type: 'operation', variables: { incoming: { time: 0 }, outgoing: { time_in_milliseconds: null } } },
        },
        [['workflow_start', 'act'], ['act', 'count'], ['count', 'check'], ['check', 'workflow_end'], ['check', 'wait', 'failure'], ['wait', 'act', 'success', 'revert']],
      ),
    );
    const job = await settle((await engine!.runner.start('poll'))._id);
    expect(job.status, jobErrorText(job)).toBe('complete');
    expect(job.variables.attempts).toEqual([job._id, job._id, job._id]);
    expect(job.variables.count).toBe(3);
    expect((await runs(job._id, 'act')).map((r) => r.iteration)).toEqual([0, 1, 2]);
    expect((await runs(job._id, 'check')).map((r) => r.finishState)).toEqual(['failure', 'failure', 'success']);
    expect((await runs(job._id, 'wait')).map((r) => r.status)).toEqual(['complete', 'complete']);
    // The job page shows each iteration of each task.
    const view = (await import('../../../core/engine/jobs/view')).jobView(job, await engine!.runner.records(job._id), []);
    expect(view.taskRuns.filter((r) => r.taskId === 'check').map((r) => `${r.iteration}:${r.finishState}`)).toEqual(['0:failure', '1:failure', '2:success']);
  });

  it('a revert back into a task with a join does not hold its first run', async () => {
    await open();
    await add(
      wf(
        'join-revert',
        {
          a: { name: 'stub', variables: { incoming: { type: 'success', delay: '', response: 'a' }, outgoing: { response: null } } },
          b: { name: 'stub', variables: { incoming: { type: 'success', delay: '', response: 'b' }, outgoing: { response: null } } },
          j: { name: 'push', variables: { incoming: { job_variable: 'seen', item: 'j' }, outgoing: {} } },
          again: evaluation({ task: 'job', variable: 'seen' }, '==', { task: 'static', variable: ['j', 'j'] }),
        },
        [['workflow_start', 'a'], ['workflow_start', 'b'], ['a', 'j'], ['b', 'j'], ['j', 'again'], ['again', 'workflow_end'], ['again', 'j', 'failure', 'revert']],
      ),
    );
    const job = await settle((await engine!.runner.start('join-revert'))._id);
    expect(job.status, jobErrorText(job)).toBe('complete');
    expect(job.variables.seen).toEqual(['j', 'j']);
  });
});

describe('forEach and the loop state', () => {
  it('runs the body once per element with current_item, then follows success', async () => {
    await open();
    await add(
      wf(
        'each',
        {
          fe: { name: 'forEach', type: 'operation', variables: { incoming: { data_array: '$var.job.items' }, outgoing: { current_item: null } } },
          body: { name: 'push', variables: { incoming: { job_variable: 'seen', item: '$var.fe.current_item' }, outgoing: {} } },
          after: { name: 'arrayLength', variables: { incoming: { arr: '$var.job.seen' }, outgoing: { length: '$var.job.n' } } },
        },
        [['workflow_start', 'fe'], ['fe', 'body', 'loop'], ['fe', 'after', 'success'], ['after', 'workflow_end']],
      ),
    );
    const job = await settle((await engine!.runner.start('each', { variables: { items: ['r1', { name: 'r2' }, 3] } }))._id);
    expect(job.status, jobErrorText(job)).toBe('complete');
    expect(job.variables.seen).toEqual(['r1', { name: 'r2' }, 3]);
    expect(job.variables.n).toBe(3);
    expect((await runs(job._id, 'fe')).map((r) => r.finishState)).toEqual(['loop', 'loop', 'loop', 'success']);
    expect((await runs(job._id, 'body')).map((r) => r.iteration)).toEqual([0, 1, 2]);
  });
});

describe('task settings', () => {
  it('retrySettings runs a task that errors again, limit times, delay ms apart, before its error transition', async () => {
    let calls = 0;
    const real = methodRunner(() => undefined);
    await open({
      runMethod: async (task, incoming, options) => {
        if (task.name !== 'flaky') return real(task, incoming, options);
        calls += 1;
        return calls < 3 ? { state: 'error', outgoing: {}, error: `not yet (${calls})` } : { state: 'success', outgoing: { result: calls } };
      },
    });
    await add(
      wf(
        'retry',
        {
          f: { name: 'flaky', retrySettings: { autoRetry: true, limit: 3, delay: 30 }, variables: { incoming: {}, outgoing: { result: '$var.job.calls' } } },
          never: { name: 'stub', retrySettings: { autoRetry: true, limit: 1, delay: 0 }, variables: { incoming: { type: 'error', delay: '', response: 'still down' }, outgoing: {}, error: '$var.job.why' } },
        },
        [['workflow_start', 'f'], ['f', 'never'], ['never', 'workflow_end'], ['never', 'workflow_end', 'error']],
      ),
    );
    const job = await settle((await engine!.runner.start('retry'))._id);
    expect(job.status, jobErrorText(job)).toBe('complete');
    expect(job.variables.calls).toBe(3);
    const [f] = await runs(job._id, 'f');
    expect(f).toMatchObject({ status: 'complete', autoRetries: 2, retryErrors: ['not yet (1)', 'not yet (2)'], attempt: 3 });
    const [never] = await runs(job._id, 'never');
    expect(never).toMatchObject({ status: 'error', autoRetries: 1, attempt: 2 });
    // variables.error wrote the error to the job variable it names.
    expect(job.variables.why).toBe('still down');
  });

  it('$var.<taskId>.error reads the error of a task that took its error transition', async () => {
    await open();
    await add(
      wf(
        'err',
        {
          s: { name: 'stub', variables: { incoming: { type: 'error', delay: '', response: 'device unreachable' }, outgoing: { response: null }, error: '' } },
          show: { name: 'newVariable', type: 'operation', variables: { incoming: { name: 'shown', value: { task: 's', variable: 'error' } }, outgoing: { value: null } } },
        },
        [['workflow_start', 's'], ['s', 'workflow_end'], ['s', 'show', 'error'], ['show', 'workflow_end']],
      ),
    );
    const job = await settle((await engine!.runner.start('err'))._id);
    expect(job.status, jobErrorText(job)).toBe('complete');
    expect(job.variables.shown).toBe('device unreachable');
  });

  it("the workflow's errorHandler runs once when a task errors with no error transition; the job then ends in error", async () => {
    await open();
    await add(
      wf('fails', { s: { name: 'stub', variables: { incoming: { type: 'error', delay: '', response: 'boom' }, outgoing: {} } } }, [['workflow_start', 's'], ['s', 'workflow_end']], {
        errorHandler: { name: 'newVariable', app: 'WorkFlowEngine', type: 'operation', variables: { incoming: { name: 'handledFor', value: '$var.s.error' }, outgoing: {} } },
      }),
    );
    const job = await settle((await engine!.runner.start('fails'))._id);
    expect(job.status).toBe('error');
    expect(job.error).toEqual([{ task: 's', message: expect.stringMatching(/task s \(stub\) failed with no error transition: boom; the workflow's errorHandler ran and ended in success/), timestamp: expect.any(Number) }]);
    expect(job.variables.handledFor).toBe('boom');
    expect(await runs(job._id, 'errorHandler')).toHaveLength(1);
  });

  it('keeps scheduled, actor, groups and canvas positions on the job', async () => {
    await open();
    await add(wf('kept', { s: { name: 'stub', nodeLocation: { x: 5, y: 6 }, x: 0.1, y: 0.2, variables: { incoming: { type: 'success', delay: '', response: '' }, outgoing: {} } } }, [['workflow_start', 's'], ['s', 'workflow_end']]));
    const job = await settle((await engine!.runner.start('kept'))._id);
    expect(job.tasks.s).toMatchObject({ scheduled: false, actor: 'Pronghorn', groups: [], nodeLocation: { x: 5, y: 6 }, x: 0.1, y: 0.2 });
  });
});

describe('childJob', () => {
  const child = wf('child', { up: { name: 'toUpperCase', variables: { incoming: { str: '$var.job.name' }, outgoing: { uppercaseString: '$var.job.out' } } } }, [['workflow_start', 'up'], ['up', 'workflow_end']]);
  const parent = (loopType: string) =>
    wf(`parent-${loopType || 'none'}`, {
      c: {
        name: 'childJob',
        type: 'operation',
        variables: { incoming: { task: '', workflow: 'child', variables: { name: { task: 'job', value: 'neverSet' } }, data_array: '$var.job.names', transformation: '', loopType }, outgoing: { job_details: '$var.job.details' } },
      },
    }, [['workflow_start', 'c'], ['c', 'workflow_end']]);

  it.each(['parallel', 'sequential'])('loopType %s starts one child per data_array element; job_details lists them in order', async (loopType) => {
    await open();
    await add(child);
    await add(parent(loopType));
    const job = await settle((await engine!.runner.start(`parent-${loopType}`, { variables: { names: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] } }))._id);
    expect(job.status, jobErrorText(job)).toBe('complete');
    // As the exports query it: `{ loop: [ each child's variables ] }`.
    const details = (job.variables.details as { loop: { _id: string; status: string; name: string; out: string; childJobLoopIndex: number }[] }).loop;
    expect(details.map((d) => [d.status, d.name, d.out])).toEqual([['complete', 'a', 'A'], ['complete', 'b', 'B'], ['complete', 'c', 'C']]);
    // The loop's own status beside the list, as the service answers it.
    expect((job.variables.details as { status: string }).status).toBe('complete');
    // Each child holds its place in data_array as the job variable childJobLoopIndex, as the service injects it.
    expect(details.map((d) => d.childJobLoopIndex)).toEqual([0, 1, 2]);
    const children = await Promise.all(details.map(async (d) => (await engine!.runner.job(d._id))!));
    expect(children.map((c) => c.variables.childJobLoopIndex)).toEqual([0, 1, 2]);
    if (loopType === 'sequential') {
      for (let i = 1; i < children.length; i++) expect(children[i]!.metrics.start_time).toBeGreaterThanOrEqual(children[i - 1]!.metrics.end_time!);
    }
    expect(children.every((c) => c.parent?.job === job._id)).toBe(true);
    // The job page links each child of the loop, in order.
    const { jobView } = await import('../../../core/engine/jobs/view');
    const view = jobView(job, await engine!.runner.records(job._id), []);
    expect(view.taskRuns.find((r) => r.taskId === 'c')).toMatchObject({ loopType, childJobs: children.map((c) => c._id) });
  });

  it('a childJob that cannot start its children (data_array not an array) with no error transition ends the job in error', async () => {
    await open();
    await add(child);
    await add(parent('sequential'));
    const job = await settle((await engine!.runner.start('parent-sequential', { variables: { names: 'not a list' } }))._id);
    expect(job.status).toBe('error');
    expect(job.error).toEqual([{ task: 'c', message: 'task c (childJob) failed with no error transition: childJob: data_array must be an array when loopType is "sequential"', timestamp: expect.any(Number) }]);
  });

  it('without a loop: an object reference to an unset variable arrives in the child as null', async () => {
    await open();
    await add(wf('child-null', { s: { name: 'stub', variables: { incoming: { type: 'success', delay: '', response: '' }, outgoing: {} } } }, [['workflow_start', 's'], ['s', 'workflow_end']]));
    const p = parent('');
    (p.tasks.c as { variables: { incoming: Record<string, unknown> } }).variables.incoming.workflow = 'child-null';
    await add(p);
    const job = await settle((await engine!.runner.start('parent-none'))._id);
    expect(job.status, jobErrorText(job)).toBe('complete');
    expect(job.variables.details).toMatchObject({ status: 'complete', name: null });
  });
});

describe('ViewData and transformation', () => {
  it("ViewData waits with its header and body resolved; the operator's button chooses success or failure", async () => {
    await open();
    await add(
      wf(
        'view',
        {
          v: { name: 'ViewData', type: 'manual', view: '/workflow_engine/task/ViewData', variables: { incoming: { header: 'Retry?', message: 'It failed', body: '$var.job.detail', variables: '', btn_success: 'Retry', btn_failure: 'Abort' }, outgoing: {} } },
          ok: { name: 'newVariable', type: 'operation', variables: { incoming: { name: 'choice', value: 'retry' }, outgoing: {} } },
          no: { name: 'newVariable', type: 'operation', variables: { incoming: { name: 'choice', value: 'abort' }, outgoing: {} } },
        },
        [['workflow_start', 'v'], ['v', 'ok'], ['v', 'no', 'failure'], ['ok', 'workflow_end'], ['no', 'workflow_end']],
      ),
    );
    const started = await engine!.runner.start('view', { variables: { detail: { code: 500 } } });
    const [waiting] = await waitFor('ViewData to wait', async () => {
      const r = await runs(started._id, 'v');
      return r[0]?.status === 'waiting' ? r : undefined;
    });
    expect(waiting).toMatchObject({ type: 'manual', incoming: { header: 'Retry?', body: { code: 500 }, btn_success: 'Retry', btn_failure: 'Abort' } });
    await engine!.runner.finishTask(started._id, 'v', {}, 'failure');
    const job = await settle(started._id);
    expect(job.status, jobErrorText(job)).toBe('complete');
    expect(job.variables.choice).toBe('abort');
  });

  const transforming = wf(
    'jst',
    { t: { name: 'transformation', type: 'operation', variables: { incoming: { tr_id: '63e5', variableMap: { x: '$var.job.x' }, options: { extractOutput: true } }, outgoing: { doubled: '$var.job.doubled' } } } },
    [['workflow_start', 't'], ['t', 'workflow_end']],
  );

  it('transformation without a JST service fails saying JST is not supported yet', async () => {
    await open();
    await add(transforming);
    const job = await settle((await engine!.runner.start('jst', { variables: { x: 2 } }))._id);
    expect(job.status).toBe('error');
    expect(jobErrorText(job)).toMatch(/JST not supported yet/);
  });

  it('transformation runs through the injected service; its outgoing variables write job variables', async () => {
    const seen: unknown[] = [];
    await open({
      transformations: {
        async run(task, incoming) {
          seen.push({ task, incoming });
          return { doubled: (task.variableMap.x as number) * 2 };
        },
      },
    });
    await add(transforming);
    const job = await settle((await engine!.runner.start('jst', { variables: { x: 21 } }))._id);
    expect(job.status, jobErrorText(job)).toBe('complete');
    expect(job.variables.doubled).toBe(42);
    expect(seen[0]).toMatchObject({ task: { tr_id: '63e5', variableMap: { x: 21 }, options: { extractOutput: true } } });
  });
});
