// A drill's timeline as a chart reads it (browser-safe, beside the drills contract: the Drills page and
// the HTML/PDF export in core/drills draw the same figures): the failure as a moment, failover and failback as the steps' spans, RTO and
// drain as spans from the failure with their targets, all in milliseconds from the drill's start.
import type { DrillReport } from './drills';

/** What the chart reads of a report. */
export type TimelineReport = Pick<DrillReport, 'startedAt' | 'endedAt' | 'status' | 'steps' | 'rtoMs' | 'drainMs' | 'targets'>;

export type TimelineKind = 'failure' | 'failover' | 'rto' | 'drain' | 'failback';

export interface TimelineBar {
  kind: TimelineKind;
  label: string;
  /** Milliseconds from the drill's start. */
  start: number;
  /** Milliseconds from the drill's start; the same as start for a moment. */
  end: number;
  /** The figure in words ("3.20 s, target 30.00 s"). */
  value: string;
  /** Where the target ends, for RTO and drain (milliseconds from the drill's start). */
  target?: number;
  /** Still going (a running drill: the bar ends now). */
  open: boolean;
  /** Over its target, or its step failed. */
  bad: boolean;
}

export interface DrillTimeline {
  bars: TimelineBar[];
  /** The scale's end: the drill's length, or the furthest bar or target. */
  span: number;
  /** The failure, in milliseconds from the start (undefined before it). */
  failureAt?: number;
}

export const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const stepOf = (r: TimelineReport, prefix: string) => r.steps.find((s) => s.name.startsWith(prefix));

/** The bars of a drill's chart; `now` ends what is still running. */
export function drillTimeline(r: TimelineReport, now = Date.now()): DrillTimeline {
  const at = (t: number) => Math.max(0, t - r.startedAt);
  const bars: TimelineBar[] = [];
  const failure = stepOf(r, 'Failure');
  if (!failure) return { bars, span: Math.max(1, at(r.endedAt ?? now)) };
  const failureAt = at(failure.startedAt);
  bars.push({ kind: 'failure', label: 'Failure', start: failureAt, end: failureAt, value: failure.name.replace(/^Failure: /, ''), open: false, bad: false });
  const span = (kind: TimelineKind, label: string, prefix: string) => {
    const step = stepOf(r, prefix);
    if (!step) return;
    const end = step.endedAt ?? now;
    bars.push({ kind, label, start: at(step.startedAt), end: at(end), value: `${seconds(end - step.startedAt)}${step.endedAt === null ? ' so far' : ''}${step.ok || step.endedAt === null ? '' : ', failed'}`, open: step.endedAt === null, bad: !step.ok && step.endedAt !== null });
  };
  span('failover', 'Failover', 'Failover');
  const measured = (kind: 'rto' | 'drain', label: string, ms: number | null, target: number) => {
    if (ms === null) {
      bars.push({ kind, label, start: failureAt, end: failureAt, value: r.status === 'running' ? 'not yet' : 'not measured', target: failureAt + target, open: r.status === 'running', bad: r.status !== 'running' });
      return;
    }
    bars.push({ kind, label, start: failureAt, end: failureAt + ms, value: `${seconds(ms)}, target ${seconds(target)}`, target: failureAt + target, open: false, bad: ms > target });
  };
  measured('rto', 'RTO', r.rtoMs, r.targets.rtoMs);
  measured('drain', 'Drain', r.drainMs, r.targets.drainMs);
  span('failback', 'Failback', 'Failback');
  const furthest = Math.max(...bars.map((b) => Math.max(b.end, b.target ?? 0)), at(r.endedAt ?? now));
  return { bars, span: Math.max(1, furthest), failureAt };
}

/** Round tick values (ms) for an axis of this length: about five, at 1, 2 or 5 × a power of ten seconds. */
export function ticks(span: number): number[] {
  const rough = span / 5;
  const power = 10 ** Math.floor(Math.log10(Math.max(rough, 1)));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? power * 10;
  const out: number[] = [];
  for (let t = 0; t <= span + 1e-9; t += step) out.push(t);
  return out;
}

/** The chart's geometry, shared by the page's component and the export's SVG text. */
export const CHART = { width: 720, label: 120, value: 190, row: 30, top: 12, axis: 24 } as const;

export function chartGeometry(timeline: DrillTimeline) {
  const plot = CHART.width - CHART.label - CHART.value;
  const x = (ms: number) => CHART.label + (Math.min(ms, timeline.span) / timeline.span) * plot;
  const rows = timeline.bars.filter((b) => b.kind !== 'failure');
  const height = CHART.top + rows.length * CHART.row + CHART.axis;
  return { plot, x, rows, height, axisY: CHART.top + rows.length * CHART.row };
}

/** What the chart shows, in one sentence per bar (the chart's description for a screen reader). */
export function timelineDescription(timeline: DrillTimeline): string {
  if (timeline.bars.length === 0) return 'No failure yet: nothing to plot.';
  return timeline.bars.map((b) => (b.kind === 'failure' ? `Failure at ${seconds(b.start)}: ${b.value}.` : `${b.label}: ${b.value}, from ${seconds(b.start)}.`)).join(' ');
}
