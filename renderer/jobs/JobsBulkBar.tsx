// Acting on the selected jobs: retry, pause, resume or cancel, each confirmed with
// the count first; the answer says how many were done and why any were not. With the
// rows shown all ticked, "Select all N matching" makes the action apply to the filter
// (every matching job, read by the console when it acts), not to the rows loaded.
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BulkAnswer, JobsFilter } from '../../core/contract/jobs';
import { call } from '../api/client';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { refreshAfter } from '../api/keys';

type Action = 'retry' | 'pause' | 'resume' | 'cancel';
const OPERATION = { retry: 'jobs.bulkRetry', pause: 'jobs.bulkPause', resume: 'jobs.bulkResume', cancel: 'jobs.bulkCancel' } as const;
const VERB: Record<Action, string> = { retry: 'Retry', pause: 'Pause', resume: 'Resume', cancel: 'Cancel' };
const WHAT: Record<Action, string> = {
  retry: 'Each task in error with no error transition runs again; the job goes back to running.',
  pause: 'Running tasks end; no new task starts until the job is resumed.',
  resume: 'Paused jobs go on from where they stopped.',
  cancel: 'The jobs, their tasks and their child jobs stop for good. This cannot be undone.',
};
const plural = (n: number) => `${n.toLocaleString()} job${n === 1 ? '' : 's'}`;

/** What a bulk action acts on: the ids ticked, or every job the filter matches (`count` when it was listed). */
export type BulkTarget = { jobIds: string[] } | { filter: JobsFilter; count: number };

export function JobsBulkBar(props: { target: BulkTarget; canSelectAll: boolean; total: number; onSelectAll: () => void; onClear: () => void }) {
  const { target, onClear } = props;
  const count = 'filter' in target ? target.count : target.jobIds.length;
  const body = 'filter' in target ? { filter: target.filter } : { jobIds: target.jobIds };
  const client = useQueryClient();
  const [asking, setAsking] = useState<Action>();
  const [answer, setAnswer] = useState<BulkAnswer>();
  const act = useMutation({
    mutationFn: (action: Action) => call(OPERATION[action], { body }),
    onSuccess: (result) => {
      setAnswer(result);
      setAsking(undefined);
      onClear();
      void refreshAfter(client, 'job');
    },
  });
  return (
    <>
      {count > 0 && (
        <div className="bulk-bar sticky-actions" role="toolbar" aria-label="Selected jobs">
          <strong>{'filter' in target ? `All ${plural(count)} matching selected` : `${plural(count)} selected`}</strong>
          {(['retry', 'pause', 'resume', 'cancel'] as Action[]).map((action) => (
            <button key={action} type="button" className={action === 'cancel' ? 'danger' : undefined} onClick={() => (act.reset(), setAsking(action))}>
              {VERB[action]}…
            </button>
          ))}
          {props.canSelectAll && (
            <button type="button" className="link" onClick={props.onSelectAll}>
              Select all {plural(props.total)} matching
            </button>
          )}
          <button type="button" className="link" onClick={onClear}>
            Clear selection
          </button>
        </div>
      )}
      {answer && (
        <div className={answer.data.failed ? 'banner' : 'banner good-banner'} role="status" aria-label="Bulk action result">
          {answer.message}
          {answer.data.failed > 0 && (
            <ul>
              {answer.data.results
                .filter((r) => !r.ok)
                .map((r) => (
                  <li key={r._id}>
                    <a href={`#/jobs/${encodeURIComponent(r._id)}`}>{r._id}</a>: {r.message}
                  </li>
                ))}
            </ul>
          )}
          <button type="button" className="link" onClick={() => setAnswer(undefined)}>
            Dismiss
          </button>
        </div>
      )}
      {asking && (
        <ConfirmDialog
          title={`${VERB[asking]} ${plural(count)}?`}
          confirmLabel={`${VERB[asking]} ${plural(count)}`}
          cancelLabel="Back"
          danger={asking === 'cancel'}
          busy={act.isPending}
          error={act.isError ? act.error.message : undefined}
          onConfirm={() => act.mutate(asking)}
          onCancel={() => setAsking(undefined)}
        >
          <p>{WHAT[asking]}</p>
          {'filter' in target && <p>Every job the list's filters match when it is done is acted on, not only the rows loaded.</p>}
        </ConfirmDialog>
      )}
    </>
  );
}
