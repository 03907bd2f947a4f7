// A manual task waiting for an operator on the job page: the job's actions, the names
// its finish form (FinishTaskForm) asks for, and ViewData's panel, whose two buttons
// (labelled by btn_success and btn_failure) end it in success or failure.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Job, TaskRun } from '../../core/contract/jobs';
import { call } from '../api/client';
import { formatValue } from './format';

export function useJobAction(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (action: { kind: 'cancel' | 'pause' | 'resume' } | { kind: 'retry'; taskId: string } | { kind: 'finish'; taskId: string; values: Record<string, unknown>; state: 'success' | 'failure' | 'error' }) => {
      if (action.kind === 'retry') return call('jobs.retryTask', { params: { id, taskId: action.taskId } });
      if (action.kind === 'finish') return call('jobs.finishTask', { params: { id, taskId: action.taskId }, body: { values: action.values, state: action.state } });
      return call(action.kind === 'cancel' ? 'jobs.cancel' : action.kind === 'pause' ? 'jobs.pause' : 'jobs.resume', { params: { id } });
    },
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['jobs.get', id] });
      void client.invalidateQueries({ queryKey: ['jobs.list'] });
    },
  });
}

/** The outgoing variables the job's copy of the task declares, in its order. */
export function declaredOutgoing(job: Job, taskId: string): string[] {
  return Object.keys((job.tasks[taskId] as { variables?: { outgoing?: Record<string, unknown> } } | undefined)?.variables?.outgoing ?? {});
}

const text = (value: unknown, fallback: string) => (typeof value === 'string' && value.trim() !== '' ? value : fallback);

export function ViewDataPanel({ job, run }: { job: Job; run: TaskRun }) {
  const action = useJobAction(job._id);
  const incoming = run.incoming ?? {};
  const body = incoming.body;
  const finish = (state: 'success' | 'failure') => action.mutate({ kind: 'finish', taskId: run.taskId, values: {}, state });
  return (
    <div className="view-data" role="group" aria-label={`View data of ${run.taskId}`}>
      <h4>{text(incoming.header, 'View data')}</h4>
      {text(incoming.message, '') && <p className="view-data-message">{String(incoming.message)}</p>}
      {body !== undefined && body !== '' && (
        <pre className="json-block job-value" aria-label={`body of ${run.taskId}`}>
          {typeof body === 'string' ? body : formatValue(body)}
        </pre>
      )}
      <div className="form-actions">
        <button type="button" className="primary" disabled={action.isPending} onClick={() => finish('success')}>
          {text(incoming.btn_success, 'Success')}
        </button>
        <button type="button" disabled={action.isPending} onClick={() => finish('failure')}>
          {text(incoming.btn_failure, 'Failure')}
        </button>
        {action.isError && <span className="error">{action.error.message}</span>}
      </div>
    </div>
  );
}
