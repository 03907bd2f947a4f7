// A job's history (collection job_history) as people read it: when (local time), who (the operator,
// or the console that did it), and what, with an operator's changes one per line rather than one
// long line of JSON values.
import type { Job } from '../../core/contract/jobs';
import { localDateTime } from '../shell/dates';

type Entry = NonNullable<Job['history']>[number];

const EVENTS: Record<string, string> = {
  'task-finished': 'Finished a task',
  'task-taken-over': 'Took over a task',
  'task-retry-changed': 'Changed values and retried',
  'start-recovered': 'Start recovered',
  'start-failed': 'Start failed',
};

/** Who did it: the operator it names, else the console (server) that wrote it, else the console. */
export function whoOf(entry: Entry): string {
  if (entry.operator) return entry.operator;
  if (entry.serverId) return `console ${entry.serverId}`;
  return 'the console';
}

/** What happened, in words: the event's name, and the message (or the list of changes when there is one). */
export function whatOf(entry: Entry): { title: string; lines: string[] } {
  const title = EVENTS[entry.event] ?? entry.event.replace(/-/g, ' ').replace(/^./, (c) => c.toUpperCase());
  const changes = entry.changes ?? [];
  if (changes.length > 0) return { title, lines: [...changes.map((c) => `changed ${c}`), `retried task ${entry.taskId ?? ''}`.trim()] };
  return { title, lines: [entry.message] };
}

export function JobHistory({ history }: { history: Entry[] }) {
  return (
    <table aria-label="Job history" className="job-history">
      <thead>
        <tr>
          <th>When</th>
          <th>Who</th>
          <th>What</th>
        </tr>
      </thead>
      <tbody>
        {history.map((entry, i) => {
          const what = whatOf(entry);
          return (
            <tr key={typeof entry._id === 'string' ? entry._id : i}>
              <td className="small nowrap">
                <time dateTime={new Date(entry.timestamp).toISOString()}>{localDateTime(entry.timestamp)}</time>
              </td>
              <td>{whoOf(entry)}</td>
              <td>
                <strong>{what.title}</strong>
                {what.lines.length === 1 ? (
                  <div className="wrap-text">{what.lines[0]}</div>
                ) : (
                  <ul className="plain-list wrap-text">
                    {what.lines.map((line) => (
                      <li key={line}>{line}</li>
                    ))}
                  </ul>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
