// The cost of the log: entries per second through the host's logger (redaction, the in-memory
// tail, the rotating file), an entry below log_level, and a GET /logs-sized query of the tail.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createLogService } from '../core/logging/logger';
import { logSettings } from '../core/profiles/runtime-config';

function rate(label: string, count: number, run: () => void) {
  const started = performance.now();
  run();
  const ms = performance.now() - started;
  return { measure: label, count, 'per second': Math.round((count / ms) * 1000), 'µs each': Math.round((ms * 1000) / count) / 1 };
}

export async function benchLogging() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-bench-log-'));
  const service = createLogService({ dataDir });
  try {
    service.configure(logSettings(dataDir, { log_level: 'info', log_max_file_size: 10 * 1024 * 1024, log_max_files: 3 }));
    const log = service.logger.child({ component: 'jobs' });
    const rows = [];
    rows.push(rate('info entry with ids (written)', 20_000, () => {
      for (let i = 0; i < 20_000; i++) log.info({ jobId: `job-${i}`, taskId: 't1', workerId: 'server:abcd' }, `task t1 of job-${i} ended`);
    }));
    rows.push(rate('entry carrying a URL password (written, masked)', 5_000, () => {
      for (let i = 0; i < 5_000; i++) log.warn({ url: 'mongodb://op:hunter2@db1:27017/x' }, 'cannot reach mongodb://op:hunter2@db1:27017');
    }));
    rows.push(rate('debug entry below log_level (dropped)', 20_000, () => {
      for (let i = 0; i < 20_000; i++) log.debug({ jobId: `job-${i}` }, 'task claimed');
    }));
    rows.push(rate('GET /logs query: job filter over the full tail', 200, () => {
      for (let i = 0; i < 200; i++) service.ring.query({ job: `job-${i * 50}`, limit: 200 });
    }));
    return rows;
  } finally {
    service.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
