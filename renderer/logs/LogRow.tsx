// One entry of the log as a row: when (local time), how bad, which part of the console, what it
// says with its details as named values, and the ids it concerns (job, task, adapter...) as links.
import type { LogEntry } from '../../core/contract/logs';
import { localTime } from '../shell/dates';

const LEVEL_CLASS: Record<string, string> = { error: 'badge bad', fatal: 'badge bad', warn: 'badge warn', info: 'badge good' };
/** The ids an entry may concern, in the order shown, with the name a person reads. */
export const IDS = [
  ['jobId', 'job'],
  ['taskId', 'task'],
  ['adapter', 'adapter'],
  ['workerId', 'worker'],
  ['reqId', 'request'],
] as const;
const SHOWN = new Set<string>(['component', ...IDS.map(([key]) => key)]);

/** A detail's value as text: a string as it is, anything else as compact JSON. */
export function detailText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  return JSON.stringify(value) ?? String(value);
}

function IdValue({ name, value }: { name: string; value: string }) {
  if (name === 'jobId') return <a href={`#/jobs/${encodeURIComponent(value)}`}>{value}</a>;
  return <>{value}</>;
}

export function LogRow({ entry }: { entry: LogEntry }) {
  const { fields } = entry;
  const details = Object.entries(fields).filter(([key]) => !SHOWN.has(key));
  const ids = IDS.filter(([key]) => fields[key] !== undefined);
  return (
    <tr>
      <td className="muted small nowrap">
        <time dateTime={entry.time} title={new Date(entry.time).toLocaleString()}>
          {localTime(entry.time)}
        </time>
      </td>
      <td>
        <span className={LEVEL_CLASS[entry.level] ?? 'badge'}>{entry.level}</span>
      </td>
      <td className="small nowrap">{typeof fields.component === 'string' ? fields.component : <span className="muted">—</span>}</td>
      <td className="log-message">
        {entry.msg}
        {details.length > 0 && (
          <dl className="log-details small">
            {details.map(([key, value]) => (
              <div key={key}>
                <dt>{key}</dt>
                <dd>{detailText(value)}</dd>
              </div>
            ))}
          </dl>
        )}
      </td>
      <td className="small">
        {ids.length > 0 && (
          <dl className="log-ids">
            {ids.map(([key, label]) => (
              <div key={key}>
                <dt>{label}</dt>
                <dd>
                  <IdValue name={key} value={String(fields[key])} />
                </dd>
              </div>
            ))}
          </dl>
        )}
      </td>
    </tr>
  );
}
