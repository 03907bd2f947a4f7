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

/**
 * Node's process.versions, with the key the service's Node has for its CommonJS export lexer,
 * `cjs_module_lexer`, which the service's clients require (its MCP server's ServerVersions,
 * itential-mcp models/health.py). Node replaced cjs-module-lexer with merve, a port of it
 * (nodejs/node#61456), and reports only `merve`: the key then names that lexer and its version
 * ("merve 1.2.2"), so it is not read as a version of cjs-module-lexer. `merve` stays as Node gives it.
 */
function nodeVersions(): Record<string, string> {
  const versions = definedOnly({ ...process.versions });
  if (versions.cjs_module_lexer === undefined && versions.merve !== undefined) versions.cjs_module_lexer = `merve ${versions.merve}`;
  return versions;
}

export function serverHealth(): ServerHealth {
  const memory = process.memoryUsage();
  const cpu = process.cpuUsage();
  return {
    version: APPLICATIONS_VERSION,
    release: RUNNING_RELEASE,
    arch: process.arch,
    platform: process.platform,
    versions: nodeVersions(),
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
