// The built-in task library of the WorkFlowEngine application: one table of every
// task with its incoming and outgoing variables (the service's names) and how it
// runs. The job runner carries out the tasks marked `runner` itself (childJob,
// forEach, transformation, the manual ViewData); docs/workflow-engine-tasks.md is
// generated from this table.
import { TaskArgumentError } from './args';
import { arrayTasks } from './arrays';
import { dataTasks } from './data';
import { numberTasks } from './numbers';
import { objectTasks } from './objects';
import { stringTasks } from './strings';
import { timeTasks } from './time';
import { MOP_APP, mopTasks } from './mop';
import type { BuiltInTask, TaskOutcome, TaskRunOptions } from './types';
import { sleep } from './data';

export type { BuiltInTask, TaskOutcome, TaskRunOptions } from './types';
export { MAX_DELAY_SECONDS } from './data';

/** The application the built-in tasks belong to, as a workflow's task `app` names it. */
export const WORKFLOW_ENGINE_APP = 'WorkFlowEngine';

const byRunner = (method: string) => (): TaskOutcome => ({ state: 'error', outgoing: {}, error: `${method} is carried out by the job runner, not as a method call` });

/** Tasks that need the job (child jobs, loops, an operator, JST): the job runner runs them. */
export const runnerTasks: BuiltInTask[] = [
  {
    method: 'childJob',
    summary:
      'Runs workflow as a child job with variables (undefined arrives as null); loopType parallel or sequential starts one child per data_array element (through transformation when named); ends when the children have',
    incoming: ['task', 'workflow', 'variables', 'data_array', 'transformation', 'loopType'],
    outgoing: ['job_details'],
    runner: true,
    run: byRunner('childJob'),
  },
  {
    method: 'forEach',
    summary: 'Runs the tasks its loop transitions lead to once per element of data_array (current_item), then ends in success',
    incoming: ['data_array'],
    outgoing: ['current_item'],
    runner: true,
    run: byRunner('forEach'),
  },
  {
    method: 'transformation',
    summary: 'Runs the JST document tr_id on variableMap; its outgoing variables are those of the JST (fails with "JST not supported yet" where no JST service is wired)',
    incoming: ['tr_id', 'variableMap', 'options'],
    outgoing: [],
    dynamicOutgoing: true,
    runner: true,
    run: byRunner('transformation'),
  },
  {
    method: 'ViewData',
    summary: 'A manual task: shows header, message and body (each <!name!> in it replaced by variables.name) to an operator, whose btn_success or btn_failure button ends it in success or failure',
    incoming: ['header', 'message', 'body', 'variables', 'btn_success', 'btn_failure'],
    outgoing: [],
    runner: true,
    run: byRunner('ViewData'),
  },
  {
    method: 'ErrorHandling',
    summary: 'A manual task: shows severity (fatal, warning or success) and status to an operator, who answers response (success, failure, retry or error) and ends it',
    incoming: ['severity', 'status', 'retry'],
    outgoing: ['response'],
    runner: true,
    run: byRunner('ErrorHandling'),
  },
];

/** Manual tasks of WorkFlowEngine: they wait for an operator whatever their `type` says. */
export const MANUAL_TASKS = ['ViewData', 'ErrorHandling'];

/**
 * Manual tasks of the console's other applications, likewise, with their variables: JsonForms'
 * ShowJsonForm asks an operator to fill the form `form_id` (prefilled with `instance_data`);
 * RenderJsonSchema renders a form from the schemas it is given (jsonSchema, uiSchema,
 * bindingSchema, validationSchema, prefilled with formData) and forgets it. What the operator
 * submits is `export`.
 */
export const applicationManualTasks: ReadonlyMap<string, readonly BuiltInTask[]> = new Map([
  [
    'JsonForms',
    [
      {
        method: 'ShowJsonForm',
        summary: 'A manual task: an operator fills the JSON form form_id (prefilled with instance_data); what they submit is export',
        incoming: ['form_id', 'instance_data'],
        outgoing: ['export'],
        runner: true,
        run: byRunner('ShowJsonForm'),
      },
      {
        method: 'RenderJsonSchema',
        summary:
          'A manual task: an operator fills a form made from jsonSchema (with uiSchema, bindingSchema and validationSchema; prefilled with formData), which is then forgotten; what they submit is export',
        incoming: ['jsonSchema', 'uiSchema', 'bindingSchema', 'validationSchema', 'formData'],
        outgoing: ['export'],
        runner: true,
        run: byRunner('RenderJsonSchema'),
      },
    ],
  ],
]);

/** The manual task names of each application (the runner waits for an operator on them). */
export const APPLICATION_MANUAL_TASKS: ReadonlyMap<string, readonly string[]> = new Map(
  [...applicationManualTasks].map(([app, tasks]) => [app, tasks.map((task) => task.method)]),
);

/** Every built-in task, by name. */
export const builtInTasks: ReadonlyMap<string, BuiltInTask> = new Map(
  [...stringTasks, ...dataTasks, ...arrayTasks, ...objectTasks, ...numberTasks, ...timeTasks, ...runnerTasks].map((task) => [task.method, task]),
);

export const builtInTaskMethods: string[] = [...builtInTasks.keys()];

/** The tasks of the console's other applications that workflows call (MOP's reattempt), by application. */
export const applicationTasks: ReadonlyMap<string, ReadonlyMap<string, BuiltInTask>> = new Map([[MOP_APP, new Map(mopTasks.map((task) => [task.method, task]))]]);

/** The task `method` of application `app` the console carries out itself, if it has one. */
export function applicationTask(app: string, method: string): BuiltInTask | undefined {
  return app === WORKFLOW_ENGINE_APP ? builtInTasks.get(method) : applicationTasks.get(app)?.get(method);
}

export function isBuiltInTask(method: string): boolean {
  return builtInTasks.has(method);
}

/**
 * Runs a built-in task. Always resolves with an outcome: a bad argument or an
 * unexpected throw is `{ state: 'error', error }` naming the cause. It rejects
 * only when `options.signal` aborts (the worker hands the task back, nothing is
 * recorded), with the signal's reason. A wait the task asks for (`after`) is
 * waited here, unless `options.timers` says the caller keeps it as a timer.
 */
export async function runBuiltInTask(
  method: string,
  incoming: Record<string, unknown>,
  options: TaskRunOptions = {},
  app = WORKFLOW_ENGINE_APP,
): Promise<TaskOutcome> {
  const task = applicationTask(app, method);
  if (!task) {
    return { state: 'error', outgoing: {}, error: `${app} has no task "${method}"` };
  }
  try {
    const outcome = await task.run(incoming ?? {}, options);
    if (outcome.after === undefined || options.timers) return outcome;
    // No durable timer here (a task run on its own): the wait is this call's.
    const { after, ...rest } = outcome;
    if (after > 0) await sleep(after, options.signal);
    return rest;
  } catch (error) {
    if (options.signal?.aborted && error === options.signal.reason) throw error;
    const message = error instanceof Error ? error.message : String(error);
    return { state: 'error', outgoing: {}, error: error instanceof TaskArgumentError ? `${method}: ${message}` : `${method} failed: ${message}` };
  }
}
