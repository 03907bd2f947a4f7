// A job's own actions on its page: Pause, Resume, and Cancel job, which asks first
// (components/ConfirmAction) and offers Pause as the step that can be undone.
import type { Job } from '../../core/contract/jobs';
import { ConfirmAction } from '../components/ConfirmAction';
import { useJobAction } from './ManualTask';

/** `retryable`: the tasks whose Retry sits here too, before the history, diagram and variables, not 60 Tabs down in the tasks table. */
export function JobActions({ job: j, retryable = [] }: { job: Job; retryable?: string[] }) {
  const action = useJobAction(j._id);
  const jobActive = j.status !== 'complete' && j.status !== 'canceled';
  return (
    <>
      {j.writtenBy === 'service' && <span className="muted">Written by the automation service: pause, resume or cancel it on the service.</span>}
      {j.writtenBy !== 'service' && j.status === 'running' && (
        <button type="button" onClick={() => action.mutate({ kind: 'pause' })} disabled={action.isPending}>
          Pause
        </button>
      )}
      {j.writtenBy !== 'service' && j.status === 'paused' && (
        <button type="button" onClick={() => action.mutate({ kind: 'resume' })} disabled={action.isPending}>
          Resume
        </button>
      )}
      {j.writtenBy !== 'service' && jobActive && (
        <ConfirmAction
          label="Cancel job"
          className="danger"
          disabled={action.isPending}
          title={`Cancel the job of “${j.name}”?`}
          confirmLabel="Yes, cancel the job"
          cancelLabel="Keep it running"
          action={() => action.mutateAsync({ kind: 'cancel' })}
        >
          <p>
            Job {j._id} stops for good: its running tasks, its child jobs and every task not yet run. This cannot be undone.
          </p>
          {j.status === 'running' && <p>To stop it only for now, Pause it instead: a paused job can be resumed.</p>}
        </ConfirmAction>
      )}
      {retryable.map((taskId) => (
        <button key={taskId} type="button" onClick={() => action.mutate({ kind: 'retry', taskId })} disabled={action.isPending}>
          Retry {taskId}
        </button>
      ))}
      {action.isSuccess && action.variables.kind === 'pause' && j.status === 'paused' && (
        <span role="status" className="action-result small">
          Job paused: Resume goes on from where it stopped.
        </span>
      )}
      {action.isError && <span className="error">{action.error.message}</span>}
    </>
  );
}
