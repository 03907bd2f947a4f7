// The drill's timeline as a picture: the failure as a line, failover and failback as their steps'
// spans, RTO and drain as bars from the failure with their targets dashed. Hand-written SVG from
// the same geometry as the HTML/PDF export (core/contract/drill-timeline.ts), so both show one chart.
import type { DrillReport } from '../../core/contract/drills';
import { CHART, chartGeometry, drillTimeline, seconds, ticks, timelineDescription, type TimelineKind } from '../../core/contract/drill-timeline';

const COLOURS: Record<TimelineKind, string> = { failure: 'var(--bad)', failover: 'var(--accent)', rto: 'var(--good)', drain: '#8250df', failback: 'var(--muted)' };

export function DrillTimelineChart({ report, now }: { report: DrillReport; now?: number }) {
  const timeline = drillTimeline(report, now);
  if (timeline.bars.length === 0) return <p className="muted">The chart appears once the failure is staged.</p>;
  const { x, rows, height, axisY } = chartGeometry(timeline);
  const description = timelineDescription(timeline);
  return (
    <figure className="drill-chart">
      <svg role="img" aria-label={`Drill timeline: ${description}`} viewBox={`0 0 ${CHART.width} ${height}`} width="100%" style={{ maxWidth: CHART.width }} fontSize={12}>
        <line x1={CHART.label} x2={CHART.width - CHART.value} y1={axisY} y2={axisY} stroke="var(--muted)" />
        {rows.map((bar, i) => {
          const y = CHART.top + i * CHART.row;
          return (
            <g key={bar.kind} data-bar={bar.kind}>
              <text x={CHART.label - 8} y={y + 19} textAnchor="end">
                {bar.label}
              </text>
              <rect
                x={x(bar.start)}
                y={y + 6}
                width={Math.max(2, x(bar.end) - x(bar.start))}
                height={18}
                rx={3}
                fill={bar.bad ? 'var(--bad)' : COLOURS[bar.kind]}
                fillOpacity={bar.open ? 0.5 : 1}
              />
              {bar.target !== undefined && (
                <line x1={x(bar.target)} x2={x(bar.target)} y1={y + 2} y2={y + 28} stroke="currentColor" strokeDasharray="3 2">
                  <title>target</title>
                </line>
              )}
              <text x={CHART.width - CHART.value + 8} y={y + 19}>
                {bar.value}
              </text>
            </g>
          );
        })}
        {ticks(timeline.span).map((t) => (
          <g key={t}>
            <line x1={x(t)} x2={x(t)} y1={axisY} y2={axisY + 4} stroke="var(--muted)" />
            <text x={x(t)} y={axisY + 16} textAnchor="middle" fontSize={11}>
              {seconds(t).replace('.00 s', ' s')}
            </text>
          </g>
        ))}
        {timeline.failureAt !== undefined && (
          <g>
            <line x1={x(timeline.failureAt)} x2={x(timeline.failureAt)} y1={CHART.top - 8} y2={axisY} stroke={COLOURS.failure} strokeWidth={2} />
            <text x={x(timeline.failureAt)} y={CHART.top - 1} fill={COLOURS.failure} fontSize={11} textAnchor="middle">
              failure
            </text>
          </g>
        )}
      </svg>
      <figcaption className="muted small">RTO and drain run from the failure; the dashed line is each one&apos;s target. Seconds from the drill&apos;s start.</figcaption>
    </figure>
  );
}
