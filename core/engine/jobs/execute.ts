// Runs the method of one task: the WorkFlowEngine's built-in library, or an
// adapter's method through the adapter manager. childJob and manual tasks are the
// job runner's own (runner.ts). Every failure becomes a task error with a message.
import { applicationTask, runBuiltInTask, type TaskOutcome, type TaskRunOptions } from '../tasks/library';
import { isRecord, messageOf } from './guards';
import type { TaskDefinition } from './types';

export const ENGINE_APP = 'WorkFlowEngine';

/**
 * What the engine needs of the adapters (Runtime.adapters): a method of an instance called with
 * named inputs (passed in pronghorn order); the answer is the adapter's result, or the error
 * object it gave its callback, and the name of the method's output (pronghorn `output.name`).
 */
export interface AdapterCaller {
  call(
    instance: string,
    method: string,
    args: Record<string, unknown>,
    options?: { timeoutMs?: number },
  ): Promise<({ ok: true; value: unknown } | { ok: false; error: unknown }) & { output: string; simulated?: string; outputDeclared?: boolean }>;
}

/**
 * The outgoing variables an answer lands in. A real method's (or a simulated one whose pronghorn.json
 * is known): its `output.name`. A simulated method of unknown schema answers as the real one would
 * into what the task declares (`variables.outgoing`, built by the designer from that schema): its
 * single declared variable, or each of several (the schema that would pick one is unknown); a task
 * declaring none gets `result`.
 */
export function answerVariables(task: TaskDefinition, answer: { output: string; simulated?: string; outputDeclared?: boolean }): string[] {
  if (!answer.simulated || answer.outputDeclared) return [answer.output];
  const declared = Object.keys(task.variables?.outgoing ?? {});
  if (declared.includes(answer.output)) return [answer.output];
  return declared.length ? declared : [answer.output];
}

const into = (names: string[], value: unknown) => Object.fromEntries(names.map((name) => [name, value]));

export type TaskMethodRunner = (task: TaskDefinition, incoming: Record<string, unknown>, options?: TaskRunOptions) => Promise<TaskOutcome>;

export function isChildJob(task: TaskDefinition) {
  return task.name === 'childJob' && (task.app ?? ENGINE_APP) === ENGINE_APP;
}

/** An adapter error object for people: its IAPerror displayString when it has one. */
function adapterErrorText(task: TaskDefinition, error: unknown): string {
  const iap = isRecord(error) && isRecord(error.IAPerror) ? error.IAPerror : undefined;
  const text = typeof iap?.displayString === 'string' ? iap.displayString : isRecord(error) && typeof error.message === 'string' ? error.message : JSON.stringify(error);
  return `${task.app}.${task.name}: ${text}`;
}

/** `work`'s answer, or the signal's reason once it aborts (whichever comes first). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

export function methodRunner(adapters: () => AdapterCaller | undefined, applicationRunning: (app: string) => boolean = () => true): TaskMethodRunner {
  const otherTask: TaskMethodRunner = async (task, incoming, options = {}) => {
    const app = task.app ?? ENGINE_APP;
    // A task of another of the console's applications (MOP's reattempt) runs here too, while it runs.
    if (task.location !== 'Adapter' && applicationTask(app, task.name)) {
      if (!applicationRunning(app)) {
        return { state: 'error', outgoing: {}, error: `${app} is STOPPED, so its task ${task.name} is refused; start it from the Health page or with PUT /applications/${app}/start` };
      }
      return runBuiltInTask(task.name, incoming, options, app);
    }
    const manager = adapters();
    if (!manager) {
      return { state: 'error', outgoing: {}, error: `${app}.${task.name}: adapters are not available on this server, so the adapter cannot be called` };
    }
    try {
      // A worker stopping or the job canceled stops waiting for the answer (dropped when it comes): the slot is free at once.
      const answer = await untilAborted(manager.call(app, task.name, incoming), options.signal);
      // As the service does: the answer is the task's outgoing variable (pronghorn output name,
      // `result`); an error answer takes the error transition with the adapter's error object kept.
      // A simulated instance's answer says so on the task's record.
      const simulated = answer.simulated ? { simulated: answer.simulated } : {};
      const names = answerVariables(task, answer);
      if (answer.ok) return { state: 'success', outgoing: into(names, answer.value), ...simulated };
      return { state: 'error', outgoing: into(names, answer.error), error: adapterErrorText(task, answer.error), ...simulated };
    } catch (error) {
      if (options.signal?.aborted) throw error;
      return { state: 'error', outgoing: {}, error: messageOf(error) };
    }
  };
  return (task, incoming, options = {}) => {
    // The built-in library's own: its promise as it is, no async step of this function's own in between.
    // Rejects only when the signal aborts: the worker is handing the task back.
    if ((task.app ?? ENGINE_APP) === ENGINE_APP && task.location !== 'Adapter') return runBuiltInTask(task.name, incoming, options);
    return otherTask(task, incoming, options);
  };
}
