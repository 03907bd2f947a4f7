// What needs an operator, first: one card per concern, its count and colour, and
// links to the list filtered to it. Grey "not answering since" while the console does not answer.
import type { AttentionItem } from '../../core/contract/attention';
import { levelTone, toneClass } from '../shell/status';
import { useStaleSince, useAttention } from '../shell/live';
import { ago, formatTime } from '../jobs/format';
import { Alert } from '../shell/Alert';

// Worded so no link here shares a name with a navigation entry.
const OPEN: Record<AttentionItem['id'], string> = {
  'jobs-error': 'Open the errored-job list',
  'operator-tasks': 'Open the queue of waiting tasks',
  adapters: 'Open the adapter health list',
  applications: 'Open the application health list',
  indexes: 'Open the indexing tab',
  'deprecated-callers': 'Open the deprecated-call list',
  'worker-role': 'Open the task worker settings',
  'last-drill': 'Open the drill report',
  'workflows-blocked': 'Open the list of what cannot run',
  store: 'Open the store card',
};

function Card({ item, stale }: { item: AttentionItem; stale?: string }) {
  const tone = stale ? 'unknown' : levelTone(item.level);
  const shown = item.entries.slice(0, 6);
  return (
    <article className={`attention-card attention-card--${tone}`} aria-labelledby={`attention-${item.id}`}>
      <h2 id={`attention-${item.id}`}>{item.title}</h2>
      <p className="attention-count">
        <span className={toneClass(tone)} aria-label={`${item.title}: count`}>
          {stale ? '?' : item.count.toLocaleString()}
        </span>{' '}
        {stale ?? item.summary}
      </p>
      {item.error && !stale && <p className="error small">Cannot read: {item.error}</p>}
      {!stale && shown.length > 0 && (
        <ul className="attention-entries" aria-label={`${item.title}: details`}>
          {shown.map((entry) => (
            <li key={entry.label + entry.link}>
              {/* An entry with its own list links to it; the others are covered by the card's link. */}
              {entry.link !== item.link ? <a href={entry.link}>{entry.label}</a> : <span>{entry.label}</span>}
              {entry.count !== undefined && <span className="attention-entry-count"> {entry.count.toLocaleString()}</span>}
              {entry.detail && <span className="muted small"> {entry.detail}</span>}
              {entry.since !== undefined && <span className="small"> since {formatTime(entry.since)} ({ago(entry.since)})</span>}
            </li>
          ))}
          {item.entries.length > shown.length && <li className="muted">and {item.entries.length - shown.length} more</li>}
        </ul>
      )}
      <a className="attention-open" href={item.link}>
        {OPEN[item.id]}
      </a>
    </article>
  );
}

export function AttentionCards() {
  const attention = useAttention();
  const stale = useStaleSince(attention);
  if (attention.isPending) return <p>Reading what needs attention…</p>;
  if (!attention.data) return <p className="error">Cannot read what needs attention: {attention.error?.message}</p>;
  // Concerns with something to do come first, worst first.
  const rank = { bad: 0, warn: 1, unknown: 2, ok: 3 } as const;
  const items = [...attention.data.items].sort((a, b) => rank[a.level] - rank[b.level]);
  return (
    <section aria-label="Needs attention" className="attention">
      {stale && (
        <Alert look="offline">
          The console does not answer: these figures are {stale}. They refresh by themselves when it is back.
        </Alert>
      )}
      <div className="attention-grid">
        {items.map((item) => (
          <Card key={item.id} item={item} stale={stale} />
        ))}
      </div>
    </section>
  );
}
