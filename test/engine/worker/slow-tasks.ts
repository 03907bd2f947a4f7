// A method runner for the worker tests: every task takes `ms` and gives its `str`
// upper-cased under each outgoing name it declares.
import type { TaskMethodRunner } from '../../../core/engine/jobs/execute';

export const slowUpperCase =
  (ms: number): TaskMethodRunner =>
  async (task, incoming, options = {}) => {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, ms);
      options.signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(options.signal!.reason);
      });
    });
    const value = String(incoming.str).toUpperCase();
    return { state: 'success', outgoing: Object.fromEntries(Object.keys(task.variables?.outgoing ?? { uppercaseString: 1 }).map((k) => [k, value])) };
  };
