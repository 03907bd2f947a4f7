// The logger the host creates: configured from loggerProps, secrets masked everywhere, the file
// rotated by size, and the task worker's errors logged with the ids they concern.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogService, type LogService } from '../../core/logging/logger';
import { logSettings } from '../../core/profiles/runtime-config';
import { isSecretKey, redactSecrets } from '../../core/secrets/classify';
import { TaskWorker } from '../../core/engine/worker/worker';
import type { JobRunner } from '../../core/engine/jobs/runner';
import { waitFor } from '../engine/queue/support';

let dataDir: string;
let service: LogService;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-log-'));
  service = createLogService({ dataDir });
});
afterEach(async () => {
  service.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('loggerProps', () => {
  it('takes the service\'s levels, file name and rotation sizes; the file stays under the data directory', () => {
    const settings = logSettings(dataDir, {
      log_level: 'spam',
      console_level: 'warning',
      log_directory: '/var/log/pronghorn',
      log_filename: 'pronghorn.log',
      log_max_file_size: 4096,
      log_max_files: 3,
      syslog: { level: 'warning' },
    });
    expect(settings).toMatchObject({ fileLevel: 'trace', consoleLevel: 'warn', file: path.join(dataDir, 'logs', 'pronghorn.log'), maxFileBytes: 4096, maxFiles: 3, warnings: [] });
  });

  it('names a value it cannot use and what it uses instead', () => {
    const settings = logSettings(dataDir, { log_level: 'loud', log_max_files: -2 });
    expect(settings.fileLevel).toBe('info');
    expect(settings.warnings).toEqual([
      'loggerProps.log_level: "loud" is not a level (spam, trace, debug, info, warn, error); using info',
      'loggerProps.log_max_files: -2 is not a whole number of at least 1; using 10',
    ]);
  });

  it('keeps entries below log_level out of the tail and the file', async () => {
    service.configure(logSettings(dataDir, { log_level: 'warn' }));
    service.logger.info('routine');
    service.logger.warn({ jobId: 'j1' }, 'worth a look');
    expect(service.ring.query({}).results.map((e) => e.msg)).toEqual(['worth a look']);
    expect(await readFile(path.join(dataDir, 'logs', 'console.log'), 'utf8')).not.toContain('routine');
  });
});

describe('redaction by the secrets classifier', () => {
  it('classifies secret keys', () => {
    expect(['passwd', 'password', 'token', 'apiKey', 'client_secret', 'adminPassword'].every(isSecretKey)).toBe(true);
    expect(['user', 'db', 'url'].some(isSecretKey)).toBe(false);
    expect(redactSecrets({ credentials: { user: 'op', passwd: 'hunter2' }, url: 'mongodb://op:hunter2@db1:27017/x' })).toEqual({
      credentials: { user: 'op', passwd: '********' },
      url: 'mongodb://op:********@db1:27017/x',
    });
  });

  it('never writes a secret to the tail or the file, in fields, messages or errors', async () => {
    service.configure(logSettings(dataDir, {}));
    service.logger.info({ credentials: { passwd: 'hunter2' }, token: 'abc123' }, 'connecting to mongodb://op:hunter2@db1:27017');
    service.logger.error({ err: new Error('auth failed for mongodb://op:hunter2@db1') }, 'store error');
    const tail = JSON.stringify(service.ring.query({}).results);
    const file = await readFile(path.join(dataDir, 'logs', 'console.log'), 'utf8');
    for (const text of [tail, file]) {
      expect(text).not.toContain('hunter2');
      expect(text).not.toContain('abc123');
      expect(text).toContain('mongodb://op:********@db1');
    }
  });
});

describe('the log file', () => {
  it('rotates by size and keeps log_max_files files', async () => {
    service.configure(logSettings(dataDir, { log_max_file_size: 2048, log_max_files: 3 }));
    for (let i = 0; i < 200; i++) service.logger.info({ i }, `entry ${i} ${'x'.repeat(40)}`);
    const files = (await readdir(path.join(dataDir, 'logs'))).sort();
    expect(files).toEqual(['console.log', 'console.log.1', 'console.log.2']);
    for (const file of files) expect((await readFile(path.join(dataDir, 'logs', file))).length).toBeLessThanOrEqual(2048);
    // The newest entry is in the current file, the ones just before it in .1.
    expect(await readFile(path.join(dataDir, 'logs', 'console.log'), 'utf8')).toContain('entry 199 ');
  });
});

describe('the task worker', () => {
  it('logs an error of its loop with the worker id, and keeps trying', async () => {
    service.configure(logSettings(dataDir, {}));
    let claims = 0;
    const runner = {
      // A store without change streams: the worker polls it.
      store: { location: 'test' },
      queue: {
        claimMany: async () => {
          claims++;
          throw new Error('MongoDB at db1.example:27017 does not answer (connection refused)');
        },
        sweep: async () => 0,
        unadvanced: async () => [],
      },
      // The worker links itself to the runner (hand-off at start, a poke when a task is queued).
      link: () => undefined,
    } as unknown as JobRunner;
    const worker = new TaskWorker({ runner, serverId: 'server-a', idleMs: 10, log: service.logger });
    worker.start();
    try {
      const entry = await waitFor('the claim error in the log', async () =>
        service.ring.query({ level: 'error' }).results.find((e) => e.msg.startsWith('task worker: claiming tasks failed')),
      );
      expect(entry.fields).toMatchObject({ component: 'task-worker', workerId: worker.workerId });
      expect(entry.msg).toContain('MongoDB at db1.example:27017 does not answer');
      expect(worker.workerId.startsWith('server-a:')).toBe(true);
      await waitFor('another claim', async () => claims >= 2);
    } finally {
      await worker.stop();
    }
    expect(service.ring.query({ text: 'task worker stopped' }).results[0]?.fields.workerId).toBe(worker.workerId);
  });
});
