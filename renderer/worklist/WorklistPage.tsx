// The work queue (as a tasklist): every manual task waiting for an operator across
// the jobs, oldest first, with its job, workflow and age; the selected task's values
// and the form to finish it sit beside the list, so the list stays in view.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { WorkItem } from '../../core/contract/worklist';
import { call } from '../api/client';
import { ago, formatTime, formatValue } from '../jobs/format';
import { replaceParams, useRoute } from '../shell/route';
import { FinishTaskForm } from '../jobs/FinishTaskForm';
import { isJsonFormTask, JsonFormPanel } from '../jobs/JsonFormPanel';

function Detail({ item, onFinished }: { item: WorkItem; onFinished: (message: string) => void }) {
  return (
    <section className="split-detail" aria-label={`Task ${item.taskId} of job ${item.jobId}`}>
      <h2>
        {item.summary ?? item.name} <span className="muted small">task {item.taskId}</span>
      </h2>
      <dl className="facts">
        <dt>Job</dt>
        <dd>
          <a href={`#/jobs/${encodeURIComponent(item.jobId)}`}>{item.job.description || item.jobId}</a> <span className="muted small">{item.jobId}</span>
        </dd>
        <dt>Workflow</dt>
        <dd>{item.job.name}</dd>
        <dt>Waiting since</dt>
        <dd>
          {formatTime(item.queuedAt)} <span className="muted small">({ago(item.queuedAt)})</span>
        </dd>
        {item.job.status === 'paused' && (
          <>
            <dt>Job</dt>
            <dd className="warn">paused: finishing the task records it; the job goes on when resumed</dd>
          </>
        )}
      </dl>
      <h3>Incoming</h3>
      <pre className="json-block job-value" aria-label={`incoming of ${item.taskId}`}>
        {formatValue(item.incoming ?? {})}
      </pre>
      <h3>Finish</h3>
      {isJsonFormTask(item) ? (
        <JsonFormPanel key={item._id} jobId={item.jobId} taskId={item.taskId} incoming={item.incoming ?? {}} onFinished={(message) => onFinished(`${message} (job ${item.jobId})`)} />
      ) : (
        <FinishTaskForm
          key={item._id}
          jobId={item.jobId}
          taskId={item.taskId}
          outgoing={item.outgoing}
          label={`Finish task ${item.taskId} of job ${item.jobId}`}
          onFinished={(message) => onFinished(`${message} (job ${item.jobId})`)}
        />
      )}
    </section>
  );
}

export function WorklistPage() {
  const route = useRoute();
  const selectedId = route.params.get('task') ?? undefined;
  const workflow = route.params.get('workflow') ?? undefined;
  const [notice, setNotice] = useState('');
  const list = useQuery({
    queryKey: ['tasks.worklist', workflow],
    queryFn: () => call('tasks.worklist', { query: { workflow, limit: 500 } }),
    refetchInterval: 5000,
  });
  const items = list.data?.results ?? [];
  const selected = items.find((i) => i._id === selectedId) ?? items[0];
  const select = (id: string) => replaceParams({ task: id, workflow });
  return (
    <section aria-label="Work queue">
      <h1>Work queue</h1>
      <p className="muted">Manual tasks waiting for an operator, oldest first. Finish one here; its job goes on at once.</p>
      {workflow && (
        <p>
          Workflow <strong>{workflow}</strong> only · <a href="#/worklist">show every workflow</a>
        </p>
      )}
      {notice && (
        <p className="good" role="status">
          {notice}
        </p>
      )}
      {list.isPending && <p>Loading the work queue…</p>}
      {list.isError && <p className="error">Cannot read the work queue: {list.error.message}</p>}
      {list.data && items.length === 0 && <p className="muted">No task is waiting for an operator.</p>}
      {items.length > 0 && (
        <div className="split">
          <div className="split-list">
            <p className="muted small" aria-live="polite">
              {list.data!.total.toLocaleString()} task{list.data!.total === 1 ? '' : 's'} waiting
            </p>
            <table aria-label="Tasks waiting for an operator" className="worklist-table">
              <thead>
                <tr>
                  <th>Task</th>
                  <th>Job and workflow</th>
                  <th>Waiting</th>
                </tr>
              </thead>
              <tbody>
                {items.map((item) => (
                  <tr key={item._id} className={item._id === selected?._id ? 'selected' : undefined} aria-selected={item._id === selected?._id}>
                    <td>
                      <button type="button" className="link" onClick={() => select(item._id)} aria-label={`${item.summary ?? item.name}: task ${item.taskId} of ${item.job.description || item.jobId}`}>
                        {item.summary ?? item.name}
                      </button>
                    </td>
                    <td className="cell-clip">
                      {item.job.description || item.jobId}
                      <div className="muted small cell-clip">{item.job.name}</div>
                    </td>
                    <td className="small nowrap">{ago(item.queuedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {selected && <Detail item={selected} onFinished={setNotice} />}
        </div>
      )}
    </section>
  );
}
