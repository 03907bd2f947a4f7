// The console's log: a live tail of what it does (requests, jobs, tasks, adapters, the task
// worker, the store) as rows of time, level, component, message and ids, filtered by level, text,
// component, adapter, job, task and time range (by the log route itself), and downloadable as shown.
import { useEffect, useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { LOG_LEVELS, type LogEntry } from '../../core/contract/logs';
import { call } from '../api/client';
import { appendEntries, asJsonLines, componentsOf, filtersFromHash, instantFromLocal, type LogFilters } from './tail';
import { LogRow } from './LogRow';
import { Alert } from '../shell/Alert';
import { PAGE_SEARCH_ATTRIBUTE } from '../components/SearchBox';
import { qk } from '../api/keys';

const POLL_MS = 1000;
function download(entries: LogEntry[]) {
  const blob = new Blob([asJsonLines(entries)], { type: 'application/x-ndjson' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = `console-log-${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl`;
  link.click();
  URL.revokeObjectURL(link.href);
}

export function LogsPage() {
  const initial = useMemo(() => filtersFromHash(window.location.hash), []);
  const [level, setLevel] = useState<LogFilters['level'] | ''>('');
  const [text, setText] = useState('');
  const [adapter, setAdapter] = useState(initial.adapter ?? '');
  const [job, setJob] = useState(initial.job ?? '');
  const [task, setTask] = useState('');
  const [component, setComponent] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [live, setLive] = useState(true);
  const liveRef = useRef(live);
  liveRef.current = live;
  const filters = useMemo<LogFilters>(
    () => ({
      level: level || undefined,
      text: text.trim() || undefined,
      adapter: adapter || undefined,
      job: job.trim() || undefined,
      task: task.trim() || undefined,
      component: component || undefined,
      from: instantFromLocal(from),
      to: instantFromLocal(to),
    }),
    [level, text, adapter, job, task, component, from, to],
  );
  const [entries, setEntries] = useState<LogEntry[]>([]);
  const last = useRef(0);
  const [error, setError] = useState<string>();
  const [file, setFile] = useState<string>();

  // Components seen since the page opened: the choice does not shrink to the one filtered by.
  const [seenComponents, setSeenComponents] = useState<string[]>([]);
  useEffect(() => setSeenComponents((seen) => componentsOf(entries, '').reduce((all, c) => (all.includes(c) ? all : [...all, c]), seen)), [entries]);
  const components = useMemo(() => [...new Set([...seenComponents, ...(component ? [component] : [])])].sort(), [seenComponents, component]);
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
          Text <input type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="message or id" {...{ [PAGE_SEARCH_ATTRIBUTE]: '' }} />
        </label>
        <label>
          Component{' '}
          <select aria-label="Component" value={component} onChange={(e) => setComponent(e.target.value)}>
            <option value="">any</option>
            {components.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
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
          Task <input type="search" value={task} onChange={(e) => setTask(e.target.value)} placeholder="task id" size={8} />
        </label>
        <label>
          From <input type="datetime-local" step={1} value={from} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label>
          To <input type="datetime-local" step={1} value={to} onChange={(e) => setTo(e.target.value)} />
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
              <th>Component</th>
              <th>Message</th>
              <th>Ids</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <LogRow key={entry.seq} entry={entry} />
            ))}
          </tbody>
        </table>
        {entries.length === 0 && !error && <p className="muted">No entries match these filters yet.</p>}
      </div>
    </section>
  );
}
