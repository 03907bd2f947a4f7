// One mapping of status words and colours for every page: a job, a task run, an
// attention level. A word says what happened; its tone is the colour (good green,
// bad red, warn amber, running blue, muted grey). A task that ended in `failure`
// reads "failure" in amber, never "complete" in green.

export type Tone = 'good' | 'bad' | 'warn' | 'running' | 'muted' | 'unknown';

export interface StatusWord {
  word: string;
  tone: Tone;
}

export const WAITING_FOR_OPERATOR = 'waiting for an operator';

const JOB: Record<string, StatusWord> = {
  running: { word: 'running', tone: 'running' },
  paused: { word: 'paused', tone: 'warn' },
  error: { word: 'error', tone: 'bad' },
  canceled: { word: 'canceled', tone: 'muted' },
  complete: { word: 'complete', tone: 'good' },
  waiting: { word: WAITING_FOR_OPERATOR, tone: 'warn' },
};

/** A job's status; a running job whose manual task waits reads "waiting for an operator". */
export function jobStatus(status: string, operatorTasks = 0): StatusWord {
  if (operatorTasks > 0 && (status === 'running' || status === 'waiting')) return JOB.waiting!;
  return JOB[status] ?? { word: status, tone: 'muted' };
}

/** A task run's status with how it ended: complete/success, failure, error, waiting for an operator or a child job. */
export function taskStatus(run: { status: string; finishState?: string; childJob?: string }): StatusWord {
  switch (run.status) {
    case 'complete':
      if (run.finishState === 'failure') return { word: 'failure', tone: 'warn' };
      if (run.finishState === 'error') return { word: 'error', tone: 'bad' };
      return { word: 'complete', tone: 'good' };
    case 'error':
      return { word: 'error', tone: 'bad' };
    case 'waiting':
      return run.childJob ? { word: 'waiting for its child job', tone: 'running' } : { word: WAITING_FOR_OPERATOR, tone: 'warn' };
    case 'running':
      return { word: 'running', tone: 'running' };
    case 'queued':
      return { word: 'queued', tone: 'muted' };
    case 'canceled':
      return { word: 'canceled', tone: 'muted' };
    default:
      return { word: run.status, tone: 'muted' };
  }
}

/** The tone of an attention level (the status bar, the Overview's cards). */
export const levelTone = (level: string): Tone => (({ ok: 'good', warn: 'warn', bad: 'bad', unknown: 'unknown' }) as Record<string, Tone>)[level] ?? 'unknown';

export const toneClass = (tone: Tone) => `badge tone-${tone}`;
