// The oracle of the health answers' shape: the vendor MCP server's pydantic models, itential-mcp
// models/health.py (github.com/itential/itential-mcp, src/itential_mcp/models/health.py), with
// which its get_health tool validates GET /health/status, /health/system, /health/server,
// /health/applications and /health/adapters (the `results` of the last two). Copied here field by
// field as zod: what the models require (a pydantic field without a default), of the type they
// require. The newer fork (AutomateIP/itential-mcp) makes many of these optional and requires
// nothing these do not, so an answer these accept, it accepts too.
//
// Pydantic's `int` takes a JSON whole number (a float only without a fractional part): `whole`.
// Its `float` takes any number. Extra fields are ignored by the models, as by zod objects here.
import { z } from 'zod';

const whole = z.number().int();
const float = z.number();
const state = z.enum(['RUNNING', 'STOPPED', 'DEAD', 'DELETED']);

export const McpMemoryUsage = z.object({ rss: whole, heapTotal: whole, heapUsed: whole, external: whole, arrayBuffers: whole });
export const McpCpuUsage = z.object({ user: whole, system: whole });
export const McpConnectionInfo = z.object({ state: z.string() });
/** `syslog`: a string or a dict (an empty dict is read as ''). */
export const McpLoggerConfig = z.object({ console: z.string(), file: z.string(), syslog: z.union([z.string(), z.record(z.string(), z.unknown())]) });

export const McpPlatformStatus = z.object({
  host: z.string(),
  serverId: z.string(),
  serverName: z.string().nullable().optional(),
  services: z.array(z.object({ service: z.string(), status: z.string() })).optional(),
  timestamp: whole,
  apps: z.string(),
  adapters: z.string(),
});

export const McpSystemInfo = z.object({
  arch: z.string(),
  release: z.string(),
  uptime: float,
  freemem: whole,
  totalmem: whole,
  loadavg: z.array(float),
  cpus: z.array(z.object({ model: z.string(), speed: whole, times: z.object({ user: whole, nice: whole, sys: whole, idle: whole, irq: whole }) })).optional(),
});

/** ServerVersions: Node's process.versions, these keys required (base64, nghttp3, ngtcp2 optional). */
const REQUIRED_VERSIONS = ['node', 'acorn', 'ada', 'ares', 'brotli', 'cjs_module_lexer', 'cldr', 'icu', 'llhttp', 'modules', 'napi', 'nghttp2', 'openssl', 'simdutf', 'tz', 'undici', 'unicode', 'uv', 'uvwasi', 'v8', 'zlib'] as const;
export const McpServerVersions = z.object(Object.fromEntries(REQUIRED_VERSIONS.map((key) => [key, z.string()])) as Record<(typeof REQUIRED_VERSIONS)[number], z.ZodString>);

export const McpServerInfo = z.object({
  version: z.string(),
  release: z.string(),
  arch: z.string(),
  platform: z.string(),
  versions: McpServerVersions,
  memoryUsage: McpMemoryUsage,
  cpuUsage: McpCpuUsage,
  uptime: float,
  pid: whole,
  dependencies: z.record(z.string(), z.string()).optional(),
});

/** ApplicationInfo: `connection` optional (absent or null for applications), the rest required. */
export const McpApplicationInfo = z.object({
  id: z.string(),
  package_id: z.string(),
  version: z.string(),
  type: z.literal('Application'),
  description: z.string(),
  routePrefix: z.string(),
  state,
  connection: McpConnectionInfo.nullable().optional(),
  uptime: float,
  memoryUsage: McpMemoryUsage,
  cpuUsage: McpCpuUsage,
  pid: whole,
  logger: McpLoggerConfig,
  timestamp: whole,
  prevUptime: float,
});

/** AdapterInfo: as ApplicationInfo, `connection` required. */
export const McpAdapterInfo = McpApplicationInfo.extend({ type: z.literal('Adapter'), connection: McpConnectionInfo });

/** HealthResponse: what get_health assembles of the five answers. */
export const McpHealthResponse = z.object({
  status: McpPlatformStatus,
  system: McpSystemInfo,
  server: McpServerInfo,
  applications: z.array(McpApplicationInfo),
  adapters: z.array(McpAdapterInfo),
});

/** The issues of `value` against `schema`, as `path: message` lines (none: the MCP model accepts it). */
export function mcpIssues(schema: z.ZodType, value: unknown): string[] {
  const parsed = schema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}
