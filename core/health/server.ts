// `GET /health/server` and `GET /health/system`: the console process and its machine, in the
// fields the service answers (Node's `process` and `os` facts), which the service's clients read:
// the vendor's GitHub Actions read `release` to choose their routes, its MCP server and health
// assessor the rest.
import os from 'node:os';
import type { ServerHealth, SystemHealth } from '../contract/health';
import { APPLICATIONS_VERSION, builtInApplications } from '../applications/registry';
import { RUNNING_RELEASE } from '../release';

const definedOnly = (record: Record<string, string | undefined>): Record<string, string> =>
  Object.fromEntries(Object.entries(record).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));

export function serverHealth(): ServerHealth {
  const memory = process.memoryUsage();
  const cpu = process.cpuUsage();
  return {
    version: APPLICATIONS_VERSION,
    release: RUNNING_RELEASE,
    arch: process.arch,
    platform: process.platform,
    versions: definedOnly({ ...process.versions }),
    memoryUsage: { rss: memory.rss, heapTotal: memory.heapTotal, heapUsed: memory.heapUsed, external: memory.external, arrayBuffers: memory.arrayBuffers },
    cpuUsage: { user: cpu.user, system: cpu.system },
    uptime: process.uptime(),
    pid: process.pid,
    dependencies: {
      ...Object.fromEntries(builtInApplications.map((app) => [app.package_id, app.version])),
      // The embedded store's engine (node:sqlite), where this Node has it.
      ...definedOnly({ sqlite: process.versions.sqlite }),
    },
  };
}

export function systemHealth(): SystemHealth {
  return {
    arch: os.arch(),
    release: os.release(),
    uptime: os.uptime(),
    freemem: os.freemem(),
    totalmem: os.totalmem(),
    loadavg: os.loadavg(),
    cpus: os.cpus().map(({ model, speed, times }) => ({ model, speed, times: { user: times.user, nice: times.nice, sys: times.sys, idle: times.idle, irq: times.irq } })),
  };
}
