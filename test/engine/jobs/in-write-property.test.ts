// Built-in tasks run in the write that queues them (core/engine/jobs/in-write.ts), over generated
// workflows: chains of WorkFlowEngine built-ins reading the start's variables, earlier tasks' job
// variables and values of the wrong type, with success, error and failure transitions jumping ahead.
// The oracle is the worker (an engine given a method runner runs every task there): each generated
// workflow must end with the same job and task records on both, field for field and in field order,
// under each release's semantics.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { methodRunner } from '../../../core/engine/jobs/execute';
import { RELEASE_SEMANTICS, SEMANTICS_RELEASES } from '../../../core/release/semantics';
import { closeEnginesAfterEach, endedJob, evaluation, open, wf, type T } from './in-write-support';

closeEnginesAfterEach();

/** A value a task reads: text, a number (a string method then ends in error), the start's variable, or an earlier task's job variable. */
const source = (i: number) => fc.oneof(fc.constantFrom('Ada', 42, '$var.job.text'), ...(i > 1 ? [fc.integer({ min: 1, max: i - 1 }).map((k) => `$var.job.v${k}`)] : []));

/** Task `i` of a chain: a built-in whose outgoing value is job variable `v<i>`. */
const task = (i: number): fc.Arbitrary<T> =>
  fc.oneof(
    source(i).map((str) => ({ name: 'toUpperCase', variables: { incoming: { str }, outgoing: { uppercaseString: `$var.job.v${i}` }, error: `$var.job.why${i}` } })),
    source(i).map((str) => ({ name: 'toLowerCase', variables: { incoming: { str }, outgoing: { lowercaseString: `$var.job.v${i}` } } })),
    source(i).map((str) => ({ name: 'stringLength', variables: { incoming: { str }, outgoing: { length: `$var.job.v${i}` } } })),
    source(i).map((value) => ({ name: 'newVariable', variables: { incoming: { name: `v${i}`, value }, outgoing: { value: null } } })),
    source(i).map((item) => ({ name: 'push', variables: { incoming: { job_variable: 'list', item }, outgoing: {} } })),
    fc.constant({ name: 'arrayLength', variables: { incoming: { arr: '$var.job.list' }, outgoing: { length: `$var.job.v${i}` } } }),
    fc.constant({ name: 'query', variables: { incoming: { pass_on_null: false, query: 'list', obj: '$var.job' }, outgoing: { return_data: `$var.job.v${i}` } } }),
    fc.tuple(source(i), fc.constantFrom('==', '!=', 'contains')).map(([left, operator]) => evaluation(left, operator, 'Ada')),
    fc.constant({ name: 'delay', variables: { incoming: { time: 0 }, outgoing: { time_in_milliseconds: null } } }),
    // Out of range an error in 2022.1, an empty string with status 204 before.
    fc.tuple(source(i), fc.integer({ min: -1, max: 4 })).map(([str, pos]) => ({ name: 'codePointAt', variables: { incoming: { str, pos }, outgoing: { codePointValue: `$var.job.v${i}` } } })),
  );

/** Where a state other than success leads from task `i` of `n`: a later task, the end, or nowhere (the job then stops in error, or waits). */
const jump = (i: number, n: number) => fc.option(fc.integer({ min: i + 1, max: n + 1 }).map((j) => (j > n ? 'workflow_end' : `t${j}`)), { nil: undefined });

const chain = fc.integer({ min: 1, max: 20 }).chain((n) =>
  fc.tuple(
    fc.tuple(...Array.from({ length: n }, (_, k) => task(k + 1))),
    fc.tuple(...Array.from({ length: n }, (_, k) => fc.tuple(jump(k + 1, n), jump(k + 1, n)))),
  ),
);

let made = 0;

describe('built-in tasks run in the write that queues them, over generated workflows', () => {
  // Each release's semantics: an undefined value stored as null before 2021.1.10 (2021.1), codePointAt's out-of-range answer.
  it.each(SEMANTICS_RELEASES)('end each with the job and task records a worker running every task writes (the worker as oracle), release %s', async (release) => {
    const semantics = RELEASE_SEMANTICS[release];
    const inWrite = await open({ semantics });
    const byWorker = await open({ semantics, runMethod: methodRunner(() => undefined) });
    const statuses = new Set<string>();
    await fc.assert(
      fc.asyncProperty(chain, async ([tasks, jumps]) => {
        const name = `generated ${++made}`;
        const ids = tasks.map((_, k) => `t${k + 1}`);
        const transitions: [string, string, string?][] = [['workflow_start', 't1']];
        ids.forEach((id, k) => {
          transitions.push([id, ids[k + 1] ?? 'workflow_end']);
          const [onError, onFailure] = jumps[k] ?? [];
          if (onError) transitions.push([id, onError, 'error']);
          if (onFailure) transitions.push([id, onFailure, 'failure']);
        });
        const workflow = wf(name, Object.fromEntries(ids.map((id, k) => [id, tasks[k] ?? {}])), transitions);
        for (const { store } of [inWrite, byWorker]) await store.collection('workflows').insertOne(structuredClone(workflow));
        const [ran, oracle] = [await endedJob(inWrite.engine, name, { text: 'abc' }), await endedJob(byWorker.engine, name, { text: 'abc' })];
        expect(JSON.stringify(ran)).toBe(JSON.stringify(oracle));
        statuses.add((ran as { job: { status: string } }).job.status);
      }),
      { numRuns: 40, seed: 45 },
    );
    // The generated workflows reached both ends a job can come to here.
    expect([...statuses].sort()).toEqual(['complete', 'error']);
  }, 120_000);
});
