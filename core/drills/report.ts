// A drill's report as text (the command line), and exported as one self-contained HTML file
// (no script, no external resource) or JSON. Secrets in the sites' properties arrive masked
// by the sites; anything secret-looking left in text is masked again here.
import { maskInText } from '../secrets/classify';
import type { DrillReport } from './types';
import { timelineSvg } from './timeline-svg';

const ms = (v: number | null) => (v === null ? '—' : `${(v / 1000).toFixed(2)} s`);
const time = (t: number | null | undefined) => (t ? new Date(t).toISOString() : '—');

/** What the load ran, with the calls each simulated instance and method answered. */
function loadText(r: DrillReport): string {
  // A report kept before `load` existed: a drill of own workflows counted simulated calls.
  const own = r.load ? r.load === 'workflows' : (r.simulatedCalls?.length ?? 0) > 0;
  if (!own) return 'the drill ledger workflow';
  const calls = (r.simulatedCalls ?? []).map((c) => `${c.instance}.${c.method} ${c.calls}`).join(', ');
  return `${(r.workflows ?? []).map((w) => `"${w}"`).join(', ')} on simulated instances; simulated calls: ${calls || 'none yet'}`;
}

export function reportText(r: DrillReport): string {
  const lines = [
    `DR drill ${r.id} (${r.kind ?? 'lab'}, failure: ${r.failure}): ${r.passed ? 'PASSED' : 'FAILED'}${r.error ? ` — ${r.error}` : ''}`,
    `RTO ${ms(r.rtoMs)} (target ${ms(r.targets.rtoMs)}, lease ${ms(r.leaseMs)}); drain ${ms(r.drainMs)} (target ${ms(r.targets.drainMs)})`,
    `load: ${loadText(r)}`,
    `jobs ${r.jobsCompleted}/${r.jobs} complete; tasks lost ${r.tasksLost}; task records completed twice ${r.taskRecordsCompletedTwice}; side effects ${r.sideEffects}, repeated ${r.sideEffectsRepeated} (at-least-once: tasks in flight at the failure)`,
    'Readiness:',
    ...r.readiness.map((i) => `  [${i.state}] ${i.title}: ${i.detail}${i.fix ? ` — fix: ${i.fix}` : ''}`),
    'Steps:',
    ...r.steps.map((s) => `  ${time(s.startedAt)} ${s.ok ? 'ok    ' : 'FAILED'} ${s.name} (${ms(s.endedAt === null ? null : s.endedAt - s.startedAt)})${s.detail ? ` — ${s.detail}` : ''}${s.error ? ` — ${s.error}` : ''}`),
  ];
  for (const site of r.sites) for (const change of site.changes ?? []) lines.push(`${site.name}: ${change}`);
  if (r.leftAs) lines.push(`Sites: ${r.leftAs}`);
  return maskInText(lines.join('\n'));
}

export function reportJson(r: DrillReport): string {
  return maskInText(JSON.stringify(r, null, 2));
}

const esc = (v: unknown) => String(v).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function reportHtml(r: DrillReport): string {
  const row = (cells: unknown[]) => `<tr>${cells.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`;
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>DR drill ${esc(r.id)}</title>
<style>body{font:14px system-ui,sans-serif;margin:2em;color:#111}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;padding:4px 8px;text-align:left}.pass{color:#0a6b2a}.fail{color:#a40000}pre{background:#f4f4f4;padding:8px;overflow:auto}</style></head><body>
<h1>DR drill report</h1>
<p class="${r.passed ? 'pass' : 'fail'}"><strong>${r.passed ? 'Passed' : 'Failed'}</strong>${r.error ? ` — ${esc(r.error)}` : ''}</p>
<table><tbody>
${row(['Drill', r.id])}${row(['Started', time(r.startedAt)])}${row(['Ended', time(r.endedAt)])}${row(['Kind', r.kind === 'sites' ? 'two sites by URL' : 'lab'])}${row(['Failure', r.failure])}${row(['processTasksOnStart persisted on failover', r.persistProcessTasksOnStart ? 'yes' : 'no'])}${row(['Database', r.database ?? '—'])}
${row(['RTO (failure → first task completed on the standby)', `${ms(r.rtoMs)} (target ${ms(r.targets.rtoMs)}; lease ${ms(r.leaseMs)})`])}
${row(['Drain time', `${ms(r.drainMs)} (target ${ms(r.targets.drainMs)})`])}
${row(['Load', loadText(r)])}${row(['Jobs complete', `${r.jobsCompleted} / ${r.jobs}`])}${row(['Tasks lost', r.tasksLost])}${row(['Task records completed twice', r.taskRecordsCompletedTwice])}
${row(['Side effects repeated', `${r.sideEffectsRepeated} of ${r.sideEffects} (at-least-once: tasks in flight when the active site failed ran again)`])}
</tbody></table>
<h2>Readiness</h2><table><thead><tr><th>Check</th><th>Result</th><th>Detail</th><th>Fix</th></tr></thead><tbody>
${r.readiness.map((i) => row([i.title, i.state, i.detail, i.fix ?? ''])).join('\n')}</tbody></table>
<h2>Timeline</h2>
<figure>${timelineSvg(r)}<figcaption>Failure, failover, RTO and drain (from the failure; the dashed line is the target) and failback, in seconds from the drill's start.</figcaption></figure>
<table><thead><tr><th>Started</th><th>Ended</th><th>Step</th><th>Result</th><th>Detail</th></tr></thead><tbody>
${r.steps.map((s) => row([time(s.startedAt), time(s.endedAt), s.name, s.ok ? 'ok' : 'failed', s.error ?? s.detail ?? ''])).join('\n')}</tbody></table>
${r.leftAs ? `<p>${esc(r.leftAs)}</p>` : ''}
<h2>Sites</h2>${r.sites.map((s) => `<h3>${esc(s.name)}: ${esc(s.serverName)} (${esc(s.url)})</h3>${s.changes?.length ? `<ul>${s.changes.map((c) => `<li>${esc(c)}</li>`).join('')}</ul>` : ''}<pre>${esc(JSON.stringify(s.properties, null, 2))}</pre>`).join('\n')}
</body></html>
`;
  return maskInText(body);
}
