// The headless rehearsal (`npm run upgrade-check -- DIR --rehearse`): the workflows exported under a
// site's folder (JSON files with a name, tasks and transitions), rehearsed as the console would.
import { readFile } from 'node:fs/promises';
import type { RehearsalReport } from '../../contract/rehearsal';
import type { SemanticsRelease } from '../../release/semantics';
import { walkFolder } from '../walk';
import { rehearse } from './run';

type Doc = Record<string, unknown>;
const isObject = (value: unknown): value is Doc => value !== null && typeof value === 'object' && !Array.isArray(value);
const isWorkflow = (doc: unknown): doc is Doc => isObject(doc) && typeof doc.name === 'string' && isObject(doc.tasks) && isObject(doc.transitions);

/** The workflows exported under `dir` (an export holding a list of them counts too); the first of a name wins. */
export async function workflowsIn(dir: string): Promise<Doc[]> {
  const { files } = await walkFolder(dir, (relative) => relative.endsWith('.json'));
  const byName = new Map<string, Doc>();
  for (const file of files) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(file.absolute, 'utf8'));
    } catch {
      // Not JSON (or not readable): the file check reports such files; the rehearsal runs workflows only.
      continue;
    }
    for (const doc of Array.isArray(parsed) ? parsed : [parsed]) {
      if (isWorkflow(doc) && !byName.has(String(doc.name))) byName.set(String(doc.name), doc);
    }
  }
  return [...byName.values()];
}

export async function rehearseFolder(dir: string, from: Exclude<SemanticsRelease, '2022.1'>): Promise<RehearsalReport> {
  const workflows = await workflowsIn(dir);
  return rehearse({ source: async (collection) => (collection === 'workflows' ? workflows : []) }, { all: true, from });
}

const show = (value: unknown) => JSON.stringify(value) ?? 'undefined';

/** The report for people. */
export function formatRehearsal(report: RehearsalReport): string {
  const lines = [
    `Rehearsal from ${report.from} to ${report.to}: ${report.workflows} workflows, ${report.same} the same, ${report.differ.length} differ, ${report.couldNotRun.length} could not run.`,
  ];
  for (const d of report.differ) {
    const { task, differs, before, after } = d.firstDivergence;
    lines.push('', `${d.workflow}: first divergence at task ${task} (${differs.join(', ')}); job ${d.outcome.before.status} → ${d.outcome.after.status}`);
    lines.push(`  ${report.from}: ${before.status ?? 'not reached'} ${show(before.outgoing)}${before.error ? ` ${before.error}` : ''}`);
    lines.push(`  ${report.to}: ${after.status ?? 'not reached'} ${show(after.outgoing)}${after.error ? ` ${after.error}` : ''}`);
  }
  for (const c of report.couldNotRun) lines.push('', `${c.workflow}: could not run: ${c.why}`);
  if (report.inputsBuilt.length) lines.push('', `Inputs built from the inputSchema for: ${report.inputsBuilt.join(', ')}`);
  return lines.join('\n');
}
