// The console's log: a live tail of what it does (requests, jobs, tasks, adapters, the task
// worker, the store), filtered by level, text, adapter and job, and downloadable as shown.
import { useEffect, useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { LOG_LEVELS, type LogEntry } from '../../core/contract/logs';
import { call } from '../api/client';
import { appendEntries, asJsonLines, filtersFromHash, type LogFilters } from './tail';
import { Alert } from '../shell/Alert';
import { qk } from '../api/keys';

const POLL_MS = 1000;
const LEVEL_CLASS: Record<string, string> = { error: 'badge bad', fatal: 'badge bad', warn: 'badge warn', info: 'badge good' };
const IDS = ['jobId', 'taskId', 'adapter', 'workerId', 'reqId'] as const;

function download(entries: LogEntry[]) {
  const blob = new Blob([asJsonLines(entries)], { type: 'application/x-ndjson' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = `console-log-${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl`;
  link.click();
  URL.revokeObjectURL(link.href);
}

function Row({ entry }: { entry: LogEntry }) {
  const { fields } = entry;
  const rest = Object.fromEntries(Object.entries(fields).filter(([key]) => !(IDS as readonly string[]).includes(key)));
  return (
    <tr>
      <td className="muted small nowrap">{new Date(entry.time).toLocaleTimeString()}</td>
      <td>
        <span className={LEVEL_CLASS[entry.level] ?? 'badge'}>{entry.level}</span>
      </td>
      <td>
        {entry.msg}
        {Object.keys(rest).length > 0 && <div className="muted small log-fields">{JSON.stringify(rest)}</div>}
      </td>
      <td className="small">
        {IDS.filter((key) => fields[key] !== undefined).map((key) => (
          <div key={key}>
            <span className="muted">{key}</span>{' '}
            {key === 'jobId' ? <a href={`#/jobs/${encodeURIComponent(String(fields[key]))}`}>{String(fields[key])}</a> : String(fields[key])}
          </div>
        ))}
      </td>
    </tr>
  );
}

export function LogsPage() {
  const initial = useMemo(() => filtersFromHash(window.location.hash), []);
  const [level, setLevel] = useState<LogFilters['level'] | ''>('');
  const [text, setText] = useState('');
  const [adapter, setAdapter] = useState(initial.adapter ?? '');
  const [job, setJob] = useState(initial.job ?? '');
  const [live, setLive] = useState(true);
  const liveRef = useRef(live);
  liveRef.current = live;
  const filters = useMemo<LogFilters>(
    () => ({ level: level || undefined, text: text.trim() || undefined, adapter: adapter || undefined, job: job.trim() || undefined }),
    [level, text, adapter, job],
  );
  const [entries, setEntries] = useState<LogEntry[]>([]);
  const last = useRef(0);
  const [error, setError] = useState<string>();
  const [file, setFile] = useState<string>();

  const adapters = useQuery({ queryKey: qk.health('health.adapters', {}), queryFn: () => call('health.adapters', { query: {} }) });

  // A new set of filters starts over: the newest matches, then what comes after them.
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    last.current = 0;
    setEntries([]);
    const poll = async (first: boolean) => {
      // Paused: the entries shown stay as they are until the tail is live again.
      if (!first && !liveRef.current) {
        timer = setTimeout(() => void poll(false), POLL_MS);
        return;
      }
      try {
        const answer = await call('logs.list', { query: { ...filters, ...(first ? { limit: 500 } : { after: last.current, limit: 1000 }) } });
        if (stopped) return;
        last.current = answer.last;
        setFile(answer.file);
        setEntries((seen) => (first ? answer.results : appendEntries(seen, answer.results)));
        setError(undefined);
      } catch (failure) {
        if (!stopped) setError((failure as Error).message);
      }
      if (!stopped) timer = setTimeout(() => void poll(false), POLL_MS);
    };
    void poll(true);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [filters]);

  const scroller = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // Follow the newest entry while live, as a terminal tail does.
    if (live && scroller.current) scroller.current.scrollTop = scroller.current.scrollHeight;
  }, [entries, live]);

  return (
    <section aria-label="Logs">
      <h1>Logs</h1>
      <div className="jobs-filters" role="search">
        <label>
          Level{' '}
          <select value={level} onChange={(e) => setLevel(e.target.value as LogFilters['level'] | '')}>
            <option value="">any</option>
            {LOG_LEVELS.map((l) => (
              <option key={l} value={l}>
                {l} and above
              </option>
            ))}
          </select>
        </label>
        <label>
          Text <input type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="message or id" />
        </label>
        <label>
          Adapter{' '}
          <select value={adapter} onChange={(e) => setAdapter(e.target.value)}>
            <option value="">any</option>
            {(adapters.data?.results ?? []).map((a) => (
              <option key={a.id} value={a.id}>
                {a.id}
              </option>
            ))}
          </select>
        </label>
        <label>
          Job <input type="search" value={job} onChange={(e) => setJob(e.target.value)} placeholder="job id" />
        </label>
        <label>
          <input type="checkbox" checked={live} onChange={(e) => setLive(e.target.checked)} /> Live
        </label>
        <button type="button" onClick={() => download(entries)} disabled={entries.length === 0}>
          Download ({entries.length})
        </button>
      </div>
      {error && <Alert>Cannot read the log: {error}</Alert>}
      <p className="muted small">
        {entries.length} entries shown{file ? `; the full log is written to ${file} (rotated by size)` : ''}.
      </p>
      <div className="log-scroll" ref={scroller}>
        <table aria-label="Log entries">
          <thead>
            <tr>
              <th>Time</th>
              <th>Level</th>
              <th>Message</th>
              <th>Ids</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <Row key={entry.seq} entry={entry} />
            ))}
          </tbody>
        </table>
        {entries.length === 0 && !error && <p className="muted">No entries match these filters yet.</p>}
      </div>
    </section>
  );
}
