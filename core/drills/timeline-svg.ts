// The drill's timeline chart as SVG text, for the HTML (and PDF) export: the same bars as the
// Drills page's chart (renderer/drills/DrillTimelineChart.tsx), no script, no external resource.
import { CHART, chartGeometry, drillTimeline, seconds, ticks, timelineDescription, type TimelineKind } from '../contract/drill-timeline';
import type { DrillReport } from './types';

export const BAR_COLOURS: Record<TimelineKind, string> = { failure: '#a40e26', failover: '#0a5cc2', rto: '#116329', drain: '#8250df', failback: '#57606a' };
const BAD = '#a40e26';

const esc = (v: unknown) => String(v).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function timelineSvg(r: DrillReport, now = Date.now()): string {
  const timeline = drillTimeline(r, now);
  if (timeline.bars.length === 0) return '<p>No failure yet: nothing to plot.</p>';
  const { x, rows, height, axisY } = chartGeometry(timeline);
  const parts: string[] = [];
  rows.forEach((bar, i) => {
    const y = CHART.top + i * CHART.row;
    const width = Math.max(2, x(bar.end) - x(bar.start));
    parts.push(`<text x="${CHART.label - 8}" y="${y + 19}" text-anchor="end">${esc(bar.label)}</text>`);
    parts.push(`<rect x="${x(bar.start).toFixed(1)}" y="${y + 6}" width="${width.toFixed(1)}" height="18" rx="3" fill="${bar.bad ? BAD : BAR_COLOURS[bar.kind]}"${bar.open ? ' fill-opacity="0.5"' : ''}/>`);
    if (bar.target !== undefined) parts.push(`<line x1="${x(bar.target).toFixed(1)}" x2="${x(bar.target).toFixed(1)}" y1="${y + 2}" y2="${y + 28}" stroke="#111" stroke-dasharray="3 2"><title>target</title></line>`);
    parts.push(`<text x="${CHART.width - CHART.value + 8}" y="${y + 19}">${esc(bar.value)}</text>`);
  });
  for (const t of ticks(timeline.span)) parts.push(`<line x1="${x(t).toFixed(1)}" x2="${x(t).toFixed(1)}" y1="${axisY}" y2="${axisY + 4}" stroke="#57606a"/><text x="${x(t).toFixed(1)}" y="${axisY + 16}" text-anchor="middle" font-size="11">${esc(seconds(t).replace('.00 s', ' s'))}</text>`);
  if (timeline.failureAt !== undefined) {
    const fx = x(timeline.failureAt).toFixed(1);
    parts.push(`<line x1="${fx}" x2="${fx}" y1="${CHART.top - 8}" y2="${axisY}" stroke="${BAR_COLOURS.failure}" stroke-width="2"/><text x="${fx}" y="${CHART.top - 1}" fill="${BAR_COLOURS.failure}" font-size="11" text-anchor="middle">failure</text>`);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="Drill timeline: ${esc(timelineDescription(timeline))}" width="${CHART.width}" height="${height}" viewBox="0 0 ${CHART.width} ${height}" font-family="system-ui,sans-serif" font-size="12"><line x1="${CHART.label}" x2="${CHART.width - CHART.value}" y1="${axisY}" y2="${axisY}" stroke="#57606a"/>${parts.join('')}</svg>`;
}
