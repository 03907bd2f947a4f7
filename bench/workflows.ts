// Workflow import: validation of generated workflows (500 of 40 tasks; one chain of 10,000
// tasks each reading its predecessor's result), saving them on the embedded store, the list
// with each workflow's needs (500 stored), and importing the project's own pre-built
// (test/fixtures/iap) and the corpus pre-builts (Kentik, AWS) in one step each when
// ../shared/corpus/iap is present (skipped, saying why, when not).
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createWorkflowsService } from '../core/engine/workflow/service';
import { validateWorkflow } from '../core/engine/workflow/validate';
import { WorkflowWrites } from '../core/engine/workflow/writes';
import { readJsonFiles } from '../core/projects/files';
import { importBundle } from '../core/projects/import';
import { readBundle } from '../core/projects/read';
import { openEmbeddedStore } from '../core/store/embedded/store';

const PREBUILTS = path.resolve(import.meta.dirname, '..', '../shared/corpus/iap/prebuilts');
const FIXTURE_PREBUILTS = path.resolve(import.meta.dirname, '../test/fixtures/iap/prebuilts');

function chain(name: string, length: number) {
  const tasks: Record<string, unknown> = {};
  const transitions: Record<string, Record<string, unknown>> = {};
  let previous = 'workflow_start';
  for (let i = 0; i < length; i++) {
    const id = `t${i}`;
    tasks[id] = {
      name: i % 7 === 0 ? 'createChangeRequest' : 'query',
      app: i % 7 === 0 ? 'Servicenow' : 'WorkFlowEngine',
      type: 'operation',
      variables: { incoming: i ? { obj: { task: `t${i - 1}`, variable: 'return_data' }, query: '$var.job.q' } : {}, outgoing: { return_data: null } },
    };
    transitions[previous] = { [id]: { type: 'standard', state: 'success' } };
    previous = id;
  }
  transitions[previous] = { workflow_end: { type: 'standard', state: 'success' } };
  return { name, tasks, transitions };
}

const ms = (from: number) => Math.round((performance.now() - from) * 10) / 10;

export async function benchWorkflows() {
  const rows: Record<string, unknown>[] = [];
  const many = Array.from({ length: 500 }, (_, i) => chain(`wf ${i}`, 40));
  let start = performance.now();
  for (const wf of many) if (validateWorkflow(wf).length) throw new Error(`${wf.name} refused`);
  rows.push({ what: 'validate 500 workflows of 40 tasks', ms: ms(start), perWorkflowMs: ms(start) / 500 });

  start = performance.now();
  const long = validateWorkflow(chain('long', 10_000));
  rows.push({ what: 'validate one chain of 10,000 tasks', ms: ms(start), problems: long.length });

  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-workflows-'));
  const store = await openEmbeddedStore(dir);
  try {
    const writes = new WorkflowWrites();
    const service = createWorkflowsService({ store: () => store, adapters: () => undefined, writes: () => writes });
    start = performance.now();
    for (const wf of many) await service.importWorkflow(wf);
    rows.push({ what: 'import 500 workflows (embedded store)', ms: ms(start), perWorkflowMs: ms(start) / 500 });
    start = performance.now();
    const list = await service.list();
    rows.push({ what: 'list 500 workflows with their needs', ms: ms(start), needing: list.filter((w) => w.needs.length).length });

    for (const folder of [path.join(FIXTURE_PREBUILTS, 'Instance-Check-Example'), path.join(PREBUILTS, 'Kentik-REST-Example'), path.join(PREBUILTS, 'AWS-EC2-REST')]) {
      const prebuilt = path.basename(folder);
      if (!existsSync(folder)) {
        const why = `skipped: no corpus at ${folder} (the shared corpus of real exports sits beside the project, as ../shared/corpus/iap)`;
        console.warn(`import ${prebuilt}: ${why}`);
        rows.push({ what: `import ${prebuilt}`, ms: why });
        continue;
      }
      start = performance.now();
      const bundle = readBundle((await readJsonFiles(folder)).files);
      const summary = await importBundle({ store: () => store, workflows: service }, bundle);
      rows.push({ what: `import pre-built ${prebuilt} (${summary.items.length} artifacts, read + import)`, ms: ms(start) });
    }
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
  return rows;
}
