// Upgrade check: one scan of a generated site of custom applications (2,000 JavaScript and
// TypeScript modules of ~150 lines, 200 package.json, 300 exported workflows, 100 shell scripts,
// 50 service configs) beside a node_modules of 5,000 files that must be skipped. Reports the
// scan time, files per second and the heap growth of the scan.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { scanFolder } from '../core/upgrade';

function module(i: number): string {
  const lines = [
    `// module ${i}: GET /admin/services/health is mentioned in a comment only`,
    `const BASE = process.env.URL || 'http://localhost:3000';`,
    `const PATHS = { adapters: '/health/adapters', services: '/admin/services' + '/health' };`,
  ];
  for (let f = 0; f < 30; f++) {
    lines.push(`export async function call${f}(id) {`, `  const url = \`\${BASE}/api/items/\${id}/part${f}\`;`, '  const res = await fetch(url, { method: "GET" });', '  return res.json();', '}');
  }
  if (i % 10 === 0) lines.push('export const services = () => fetch(BASE + PATHS.services);');
  if (i % 25 === 0) lines.push("import 'ui/lib/bootstrap/src/bootstrap.js';");
  return lines.join('\n');
}

function workflow(i: number) {
  const tasks: Record<string, unknown> = { workflow_start: { name: 'workflow_start' }, workflow_end: { name: 'workflow_end' } };
  const transitions: Record<string, Record<string, unknown>> = { workflow_start: {}, workflow_end: {} };
  let previous = 'workflow_start';
  for (let t = 0; t < 40; t++) {
    const id = `t${t}`;
    tasks[id] = {
      name: t === 5 ? 'codePointAt' : t === 30 ? 'childJob' : 'query',
      app: 'WorkFlowEngine',
      type: 'operation',
      variables: { incoming: t === 30 ? { workflow: 'child', variables: { a: '$var.job.a', b: `$var.t${t - 1}.return_data` } } : { pass: '$var.job.x' }, outgoing: { return_data: null } },
    };
    transitions[previous] = { [id]: { type: 'standard', state: 'success' } };
    previous = id;
  }
  transitions[previous] = { workflow_end: { type: 'standard', state: 'success' } };
  return { name: `wf ${i}`, tasks, transitions };
}

export async function benchUpgrade() {
  const root = await mkdtemp(path.join(os.tmpdir(), 'bench-upgrade-'));
  try {
    for (let app = 0; app < 200; app++) {
      const dir = path.join(root, `apps/app-${app}`);
      await mkdir(path.join(dir, 'src'), { recursive: true });
      await mkdir(path.join(dir, 'node_modules/dep'), { recursive: true });
      await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: `app-${app}`, scripts: { build: 'tsc', reindex: app % 20 === 0 ? 'npm run index' : 'echo' } }, null, 2));
      for (let m = 0; m < 10; m++) await writeFile(path.join(dir, 'src', `m${m}.${m % 2 ? 'ts' : 'js'}`), module(app * 10 + m));
      for (let d = 0; d < 25; d++) await writeFile(path.join(dir, 'node_modules/dep', `d${d}.js`), module(d));
    }
    await mkdir(path.join(root, 'workflows'));
    for (let w = 0; w < 300; w++) await writeFile(path.join(root, 'workflows', `wf${w}.json`), JSON.stringify(workflow(w), null, 2));
    await mkdir(path.join(root, 'scripts'));
    for (let s = 0; s < 100; s++) await writeFile(path.join(root, 'scripts', `s${s}.sh`), `#!/bin/sh\n# npm run index\ncd /opt/app${s}\nnpm run build\n`);
    await mkdir(path.join(root, 'config'));
    for (let c = 0; c < 50; c++) await writeFile(path.join(root, 'config', `c${c}.json`), JSON.stringify([{ name: 'WorkFlowEngine', properties: { activate: c % 2 === 0 } }]));

    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    let peakHeap = heapBefore;
    const started = performance.now();
    const report = await scanFolder(root, {
      onProgress: (done) => {
        if (done % 200 === 0) peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
      },
    });
    const ms = performance.now() - started;
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    return [
      {
        files_read: report.summary.filesScanned,
        findings: report.summary.findings,
        scan_ms: Math.round(ms),
        files_per_s: Math.round(report.summary.filesScanned / (ms / 1000)),
        heap_growth_mb: +((peakHeap - heapBefore) / 1024 / 1024).toFixed(1),
      },
    ];
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
