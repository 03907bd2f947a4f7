// An application's or adapter's recent states as a small strip: one segment per state it was in,
// from the first change this console saw to now, coloured by state (and, for an adapter running,
// by its connection), each segment named with its state and when it began.
import type { HealthItem } from '../../core/contract/health';
import { localTime } from '../shell/dates';

type Change = NonNullable<HealthItem['history']>[number];

const WIDTH = 120;
const HEIGHT = 12;
const COLOUR: Record<string, string> = { RUNNING: 'var(--good)', ONLINE: 'var(--good)', DEGRADED: '#bf8700', OFFLINE: 'var(--warn)', STOPPED: 'var(--muted)', DEAD: 'var(--bad)' };

export interface Segment {
  from: number;
  to: number;
  label: string;
  colour: string;
}

const labelOf = (c: Change) => (c.state === 'RUNNING' && c.connection && c.connection !== 'ONLINE' ? `RUNNING, ${c.connection}` : c.state);

/** The segments of a history up to `now`, as fractions (0–1) of the strip. */
export function segmentsOf(history: readonly Change[], now = Date.now()): Segment[] {
  if (history.length === 0) return [];
  const start = Date.parse(history[0]!.at);
  const span = Math.max(1, now - start);
  return history.map((change, i) => {
    const from = Date.parse(change.at);
    const to = i + 1 < history.length ? Date.parse(history[i + 1]!.at) : now;
    const colour = COLOUR[change.state === 'RUNNING' && change.connection ? change.connection : change.state] ?? 'var(--unknown)';
    return { from: (from - start) / span, to: Math.max((from - start) / span, (to - start) / span), label: `${labelOf(change)} since ${localTime(change.at, now)}`, colour };
  });
}

export function StateTimeline({ item, now = Date.now() }: { item: HealthItem; now?: number }) {
  const history = item.history ?? [];
  if (history.length === 0) return null;
  const segments = segmentsOf(history, now);
  const summary = history.length === 1 ? `${labelOf(history[0]!)} since ${localTime(history[0]!.at, now)}` : segments.map((s) => s.label).join('; then ');
  return (
    <svg className="state-timeline" role="img" aria-label={`Recent states of ${item.id}: ${summary}`} width={WIDTH} height={HEIGHT} viewBox={`0 0 ${WIDTH} ${HEIGHT}`}>
      {segments.map((s) => (
        <rect key={`${s.from}-${s.label}`} x={s.from * WIDTH} y={0} width={Math.max(1.5, (s.to - s.from) * WIDTH)} height={HEIGHT} fill={s.colour}>
          <title>{s.label}</title>
        </rect>
      ))}
    </svg>
  );
}
