// The drill's timeline chart: what it plots of a report (failure, failover, RTO and drain from the
// failure with their targets, failback), the same bars in the page and in the HTML/PDF export.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CHART, chartGeometry, drillTimeline, ticks } from '../../core/contract/drill-timeline';
import { reportHtml } from '../../core/drills/report';
import type { DrillReport } from '../../core/drills/types';

const T0 = Date.UTC(2026, 10, 28, 1, 0, 0);
const step = (name: string, from: number, to: number | null, ok = true) => ({ name, startedAt: T0 + from, endedAt: to === null ? null : T0 + to, ok });

function report(over: Partial<DrillReport> = {}): DrillReport {
  return {
    id: 'drill-1',
    kind: 'lab',
    failure: 'kill',
    failback: true,
    status: 'done',
    passed: true,
    startedAt: T0,
    endedAt: T0 + 12_000,
    jobs: 4,
    jobsCompleted: 4,
    tasksLost: 0,
    taskRecordsCompletedTwice: 0,
    sideEffects: 12,
    sideEffectsRepeated: 1,
    rtoMs: 1_500,
    drainMs: 6_000,
    leaseMs: 2_000,
    targets: { rtoMs: 5_000, drainMs: 5_000 },
    readiness: [],
    sites: [],
    steps: [
      step('Prepare both sites: the drill ledger adapter and the drill workflow', 0, 1_000),
      step('Load: 4 jobs of the drill workflow', 1_000, 3_000),
      step('Failure: kill -9 of the active site', 3_000, 3_100),
      step('Failover: start the task worker and the applications on the standby', 3_100, 4_000),
      step('Verify: every job ends, no task lost or completed twice', 4_000, 9_500),
      step('Failback: the active site works tasks again, the standby stands by', 9_500, 11_000),
    ],
    ...over,
  };
}

describe('the drill timeline chart', () => {
  it('plots the failure, failover, RTO and drain from the failure with their targets, and failback', () => {
    const { bars, failureAt, span } = drillTimeline(report());
    expect(failureAt).toBe(3_000);
    expect(bars.map((b) => [b.kind, b.start, b.end])).toEqual([
      ['failure', 3_000, 3_000],
      ['failover', 3_100, 4_000],
      ['rto', 3_000, 4_500],
      ['drain', 3_000, 9_000],
      ['failback', 9_500, 11_000],
    ]);
    expect(bars.find((b) => b.kind === 'rto')).toMatchObject({ value: '1.50 s, target 5.00 s', target: 8_000, bad: false });
    // Drain took 6 s against a 5 s target: drawn as over its target.
    expect(bars.find((b) => b.kind === 'drain')).toMatchObject({ value: '6.00 s, target 5.00 s', target: 8_000, bad: true });
    expect(span).toBe(12_000);
  });

  it('says what is not measured yet while a drill runs, and plots nothing before the failure', () => {
    const running = report({ status: 'running', endedAt: undefined, rtoMs: null, drainMs: null, steps: report().steps.slice(0, 4) });
    const timeline = drillTimeline(running, T0 + 5_000);
    expect(timeline.bars.find((b) => b.kind === 'rto')).toMatchObject({ value: 'not yet', open: true, bad: false });
    expect(timeline.bars.some((b) => b.kind === 'failback')).toBe(false);
    const early = report({ status: 'running', endedAt: undefined, steps: report().steps.slice(0, 2) });
    expect(drillTimeline(early, T0 + 2_000).bars).toEqual([]);
    expect(reportHtml(early)).toContain('No failure yet: nothing to plot.');
  });

  it('puts the same chart in the HTML export: an SVG with its figures named, no script or outside resource', () => {
    const html = reportHtml(report());
    const svg = /<svg[^>]*>[\s\S]*?<\/svg>/.exec(html)?.[0] ?? '';
    expect(svg).toContain('role="img"');
    expect(svg).toContain('RTO: 1.50 s, target 5.00 s');
    expect(svg.match(/<rect /g)).toHaveLength(4);
    expect(svg).toContain('>failure</text>');
    expect(html).not.toMatch(/<script|<link|src=|href=/);
  });

  it('rounds the axis to 1, 2 or 5 times a power of ten', () => {
    expect(ticks(12_000)).toEqual([0, 5_000, 10_000]);
    expect(ticks(900)).toEqual([0, 200, 400, 600, 800]);
  });

  it('keeps every bar, target and tick inside the plot, whatever the figures', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 600_000 }), fc.option(fc.integer({ min: 0, max: 600_000 })), fc.integer({ min: 1, max: 600_000 }), (failAt, rto, target) => {
        const r = report({ rtoMs: rto, drainMs: rto, targets: { rtoMs: target, drainMs: target }, endedAt: T0 + failAt + 10, steps: [step('Failure: kill -9 of the active site', failAt, failAt + 10)] });
        const timeline = drillTimeline(r);
        const { x } = chartGeometry(timeline);
        const inside = (ms: number) => x(ms) >= CHART.label && x(ms) <= CHART.width - CHART.value + 1e-9;
        return timeline.bars.every((b) => inside(b.start) && inside(b.end) && (b.target === undefined || inside(b.target))) && ticks(timeline.span).every(inside);
      }),
    );
  });
});
