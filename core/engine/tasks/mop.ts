// The tasks of the MOP application that workflows call (`"app": "MOP"`), beside the WorkFlowEngine
// library. reattempt is the service's polling loop: "Workflow will follow reattempt task's outgoing
// transition after n minutes of delay". Its success transition is a revert to the task it polls
// (attemptID); once that task was run again `attempts` times, it ends in error instead, so the
// workflow's error transition takes over.
import { requiredNumber, TaskArgumentError } from './args';
import { MAX_DELAY_SECONDS } from './data';
import type { BuiltInTask, TaskOutcome } from './types';

export const MOP_APP = 'MOP';

export const mopTasks: BuiltInTask[] = [
  {
    method: 'reattempt',
    summary: `Waits minutes (at most ${MAX_DELAY_SECONDS / 60}), then ends in success so its revert transition runs attemptID again; after attempts such runs it ends in error`,
    incoming: ['job_id', 'attemptID', 'minutes', 'attempts'],
    outgoing: ['response'],
    run(incoming, options): TaskOutcome {
      const minutes = requiredNumber(incoming, 'minutes');
      const attempts = requiredNumber(incoming, 'attempts');
      if (minutes < 0 || minutes * 60 > MAX_DELAY_SECONDS) throw new TaskArgumentError(`minutes must be between 0 and ${MAX_DELAY_SECONDS / 60}, got ${minutes}`);
      if (!Number.isInteger(attempts) || attempts < 0) throw new TaskArgumentError(`attempts must be a whole number of 0 or more, got ${attempts}`);
      const target = typeof incoming.attemptID === 'string' && incoming.attemptID ? incoming.attemptID : 'the task';
      // Each run of this task in the job is one reattempt (a revert makes a new iteration).
      const made = options.iteration ?? 0;
      if (made >= attempts) {
        const response = `${target} was attempted again ${attempts} times: no attempt left`;
        return { state: 'error', outgoing: { response }, error: response };
      }
      return { state: 'success', outgoing: { response: `reattempting ${target} (${made + 1} of ${attempts})` }, after: minutes * 60_000 };
    },
  },
];
