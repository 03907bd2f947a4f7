// A manual task waiting for an operator, drawn the same way on the job page and in the
// work queue: ViewData shows its header as a heading, its message and body, and a button
// per btn_success / btn_failure; ErrorHandling shows its severity and status and the answers
// its severity allows; JsonForms' ShowJsonForm shows its form; any other manual task gets
// the form of its declared outgoing values (FinishTaskForm). What a panel shows from the task's
// incoming values reads masked where it is or holds a secret variable's value, as the rest of the
// job's page, until the page's Reveal (SecretVariables).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Job } from '../../core/contract/jobs';
import { call } from '../api/client';
import { Alert } from '../shell/Alert';
import { formatValue, substituteViewData } from './format';
import { FinishTaskForm, useFinishTask } from './FinishTaskForm';
import { isJsonFormTask, JsonFormPanel } from './JsonFormPanel';
import { refreshAfter } from '../api/keys';
import { useShownDeep } from './SecretVariables';

export function useJobAction(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (action: { kind: 'cancel' | 'pause' | 'resume' } | { kind: 'retry'; taskId: string } | { kind: 'finish'; taskId: string; values: Record<string, unknown>; state: 'success' | 'failure' | 'error' }) => {
      if (action.kind === 'retry') return call('jobs.retryTask', { params: { id, taskId: action.taskId }, body: {} });
      if (action.kind === 'finish') return call('jobs.finishTask', { params: { id, taskId: action.taskId }, body: { values: action.values, state: action.state } });
      return call(action.kind === 'cancel' ? 'jobs.cancel' : action.kind === 'pause' ? 'jobs.pause' : 'jobs.resume', { params: { id } });
    },
    onSuccess: () => {
      void refreshAfter(client, 'job');
    },
  });
}

/** The outgoing variables the job's copy of the task declares, in its order. */
export function declaredOutgoing(job: Job, taskId: string): string[] {
  return Object.keys((job.tasks[taskId] as { variables?: { outgoing?: Record<string, unknown> } } | undefined)?.variables?.outgoing ?? {});
}

const text = (value: unknown, fallback: string) => (typeof value === 'string' && value.trim() !== '' ? value : fallback);

export interface ManualTaskProps {
  jobId: string;
  taskId: string;
  /** The task's method and app: they decide how it is drawn. */
  name: string;
  app?: string;
  incoming: Record<string, unknown>;
  /** The outgoing variables the task declares (the generic form's fields). */
  outgoing: string[];
  /** The level of the task's own heading (ViewData's header, the form's name): 3 in the work queue, 4 in a job's table. */
  level?: 3 | 4;
  onFinished?: (message: string) => void;
  /** The generic form's Close button. */
  onClose?: () => void;
  /** The generic form's accessible name (default: "Finish task <task> of job <job>"). */
  formLabel?: string;
}

/** Tasks drawn by their own panel rather than the generic finish form. */
export const hasOwnPanel = (task: { name: string; app?: string }) => task.name === 'ViewData' || task.name === 'ErrorHandling' || isJsonFormTask(task);

function Heading({ level, children }: { level: 3 | 4; children: string }) {
  return level === 3 ? <h3>{children}</h3> : <h4>{children}</h4>;
}

function ViewDataPanel({ jobId, taskId, incoming, level, onFinished }: ManualTaskProps & { level: 3 | 4 }) {
  const finish = useFinishTask(jobId, taskId, onFinished);
  const shown = useShownDeep();
  const [header, message, body] = [shown(incoming.header), shown(incoming.message), shown(incoming.body)];
  const end = (state: 'success' | 'failure') => finish.mutate({ values: {}, state });
  return (
    <div className="view-data" role="group" aria-label={`View data of ${taskId}`}>
      <Heading level={level}>{text(header, 'View data')}</Heading>
      {text(message, '') && <p className="view-data-message">{String(message)}</p>}
      {body !== undefined && body !== '' && (
        <pre className="json-block job-value" aria-label={`body of ${taskId}`}>
          {typeof body === 'string' ? substituteViewData(body, shown(incoming.variables)) : formatValue(body)}
        </pre>
      )}
      <div className="form-actions">
        <button type="button" className="primary" disabled={finish.isPending} onClick={() => end('success')}>
          {text(incoming.btn_success, 'Success')}
        </button>
        <button type="button" disabled={finish.isPending} onClick={() => end('failure')}>
          {text(incoming.btn_failure, 'Failure')}
        </button>
        {finish.isError && (
          <Alert as="span">
            Not finished: {finish.error.message}
          </Alert>
        )}
      </div>
    </div>
  );
}

type Answer = { label: string; response: 'success' | 'failure' | 'retry' | 'error'; state: 'success' | 'failure' | 'error'; primary?: boolean };

/** The answers ErrorHandling's severity allows: fatal → retry (unless retry is false) or abort; warning → proceed or abort; success → acknowledge. */
function errorHandlingAnswers(severity: string, retry: unknown): Answer[] {
  if (severity === 'fatal') {
    return [
      ...(retry === false || retry === 'false' ? [] : [{ label: 'Retry', response: 'retry' as const, state: 'success' as const, primary: true }]),
      { label: 'Abort the job', response: 'error', state: 'error' },
    ];
  }
  if (severity === 'warning') {
    return [
      { label: 'Proceed', response: 'success', state: 'success', primary: true },
      { label: 'Abort', response: 'failure', state: 'failure' },
    ];
  }
  return [{ label: 'Acknowledge', response: 'success', state: 'success', primary: true }];
}

function ErrorHandlingPanel({ jobId, taskId, incoming, level, onFinished }: ManualTaskProps & { level: 3 | 4 }) {
  const finish = useFinishTask(jobId, taskId, onFinished);
  const severity = text(incoming.severity, 'fatal');
  const status = useShownDeep()(incoming.status);
  const tone = severity === 'fatal' ? 'bad' : severity === 'warning' ? 'warn' : 'good';
  return (
    <div className="view-data" role="group" aria-label={`Error handling of ${taskId}`}>
      <Heading level={level}>{`Error handling: ${severity}`}</Heading>
      <p>
        <span className={`badge ${tone}`}>{severity}</span> {text(status, '(no status given)')}
      </p>
      <div className="form-actions">
        {errorHandlingAnswers(severity, incoming.retry).map((answer) => (
          <button
            key={answer.response}
            type="button"
            className={answer.primary ? 'primary' : undefined}
            disabled={finish.isPending}
            onClick={() => finish.mutate({ values: { response: answer.response }, state: answer.state })}
          >
            {answer.label}
          </button>
        ))}
        {finish.isError && <Alert as="span">Not finished: {finish.error.message}</Alert>}
      </div>
    </div>
  );
}

/** The one way a manual task is drawn for the operator who finishes it. */
export function ManualTaskPanel(props: ManualTaskProps) {
  const level = props.level ?? 4;
  if (props.name === 'ViewData') return <ViewDataPanel {...props} level={level} />;
  if (props.name === 'ErrorHandling') return <ErrorHandlingPanel {...props} level={level} />;
  if (isJsonFormTask(props)) return <JsonFormPanel name={props.name} jobId={props.jobId} taskId={props.taskId} incoming={props.incoming} onFinished={props.onFinished} />;
  return (
    <FinishTaskForm
      jobId={props.jobId}
      taskId={props.taskId}
      outgoing={props.outgoing}
      label={props.formLabel ?? `Finish task ${props.taskId} of job ${props.jobId}`}
      onFinished={(message) => props.onFinished?.(message)}
      onClose={props.onClose}
    />
  );
}
