// Heavy legal requests against a started console: eight job starts at once, each carrying
// BENCH_HEAVY_VALUES (999,000) variable values, while GET /health/status is asked again and again.
// Prints each start's answer (status, ms), the status route's latency meanwhile (p50, p99, max),
// and the console's resident memory (peak while they ran, and once they are done).
// The console's limit on a job's variables (docs/operating.md) is what keeps these figures bounded.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';

const VALUES = Number(process.env.BENCH_HEAVY_VALUES ?? 999_000);
const PARALLEL = Number(process.env.BENCH_HEAVY_PARALLEL ?? 8);
const ROOT = path.resolve(import.meta.dirname, '..');
const TOKEN = 'bench-token';
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

function memoryMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  return { rss: round(kb('VmRSS') / 1024), peak: round(kb('VmHWM') / 1024) };
}

async function startConsole(dataDir: string) {
  const child = spawn(process.execPath, [...(process.env.BENCH_HEAVY_NODE_ARGS ?? '').split(' ').filter(Boolean), '--import', 'tsx', path.join(ROOT, 'core/cli/serve.ts'), '--data-dir', dataDir, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, CONSOLE_TOKEN: TOKEN },
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const m = /Console listening on (\S+)/.exec(output);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`bench: the console exited (${code}) before listening: ${output}`)));
  });
  return { child, url };
}

/**
 * The starts are built and sent from a worker thread: this thread only asks the status route, so
 * its latencies are the console's, not the time this process spends building 8 large bodies.
 */
function sendFromWorker(url: string, headers: Record<string, string>): Promise<{ answers: { status: number; ms: number; message: string }[]; bodyMb: number }> {
  const source = `
    const { parentPort, workerData: { url, headers, values, parallel } } = require('node:worker_threads');
    const body = JSON.stringify({ workflow: 'heavy', options: { variables: { values: Array.from({ length: values }, (_v, i) => i % 1000) } } });
    const sent = performance.now();
    Promise.all(Array.from({ length: parallel }, async () => {
      const res = await fetch(url + '/operations-manager/jobs/start', { method: 'POST', headers, body });
      const text = await res.text();
      return { status: res.status, ms: Math.round(performance.now() - sent), message: JSON.parse(text).message ?? '' };
    })).then((answers) => parentPort.postMessage({ answers, bodyMb: Math.round((body.length / 2 ** 20) * 10) / 10 }));`;
  const worker = new Worker(source, { eval: true, workerData: { url, headers, values: VALUES, parallel: PARALLEL } });
  return new Promise((resolve, reject) => {
    worker.once('message', (result: Awaited<ReturnType<typeof sendFromWorker>>) => void worker.terminate().then(() => resolve(result)));
    worker.once('error', reject);
  });
}

export async function benchHeavyRequests() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-heavy-'));
  const { child, url } = await startConsole(dataDir);
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  try {
    const flow = {
      name: 'heavy',
      tasks: {
        workflow_start: { name: 'workflow_start' },
        s: { name: 'stub', app: 'WorkFlowEngine', type: 'automatic', variables: { incoming: { type: 'success', delay: '', response: 'ok' }, outgoing: { response: null } } },
        workflow_end: { name: 'workflow_end' },
      },
      transitions: { workflow_start: { s: { type: 'standard', state: 'success' } }, s: { workflow_end: { type: 'standard', state: 'success' } } },
    };
    const made = await fetch(`${url}/workflows`, { method: 'POST', headers, body: JSON.stringify(flow) });
    if (made.status >= 300) throw new Error(`bench: the workflow was refused: ${made.status} ${await made.text()}`);
    const before = memoryMb(child.pid!);

    // The status route, asked one after another until the starts are answered and 3 s after.
    const latencies: number[] = [];
    let polling = true;
    let peak = before.peak;
    const poller = (async () => {
      while (polling) {
        const started = performance.now();
        const res = await fetch(`${url}/health/status`, { headers });
        await res.arrayBuffer();
        latencies.push(performance.now() - started);
        peak = Math.max(peak, memoryMb(child.pid!).peak);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const { answers, bodyMb } = await sendFromWorker(url, headers);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    polling = false;
    await poller;
    const sorted = [...latencies].sort((a, b) => a - b);
    const after = memoryMb(child.pid!);
    const statuses = [...new Set(answers.map((a) => a.status))].join(', ');
    return [
      `${PARALLEL} job starts at once, ${VALUES.toLocaleString('en')} variable values each (${bodyMb} MB body): answered ${statuses} in ${Math.min(...answers.map((a) => a.ms))}–${Math.max(...answers.map((a) => a.ms))} ms`,
      `  first answer: ${answers[0]?.message.slice(0, 160)}`,
      `GET /health/status meanwhile (${sorted.length} asks): p50 ${round(percentile(sorted, 50))} ms, p99 ${round(percentile(sorted, 99))} ms, max ${round(sorted.at(-1) ?? NaN)} ms`,
      `console RSS: ${before.rss} MB before, peak ${peak} MB, ${after.rss} MB 3 s after the answers`,
    ];
  } finally {
    // The console ends before its data directory goes (it writes there until it exits).
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    await exited;
    await rm(dataDir, { recursive: true, force: true });
  }
}
