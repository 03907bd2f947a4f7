// Operations of the console's health: its own status (the status bar, scripts that watch the
// server), the applications and adapters in the reference shape, adapter start/stop/restart, the
// removed `GET /admin/services/health` and who still calls deprecated APIs.
import { z } from 'zod';
import { SafeName } from './ids';
import { defineOperations } from './operation';

export const ServiceStatus = z.object({
  service: z.string(),
  status: z.enum(['running', 'failed']),
  detail: z.string().optional(),
});

/** `running` when every one is RUNNING, else `degraded` (the service's words). */
const Overall = z.enum(['running', 'degraded']);

export const HealthStatus = z.object({
  /** The service's fields (`host`, `serverId`, `serverName`, `services`, `timestamp`, `apps`, `adapters`), then the console's own. */
  host: z.string(),
  serverId: z.string(),
  serverName: z.string(),
  services: z.array(ServiceStatus),
  /** When the status was taken, ms since the epoch. */
  timestamp: z.number(),
  apps: Overall,
  adapters: Overall,
  release: z.string(),
  profile: z.string(),
  store: z.enum(['embedded', 'mongodb']),
  /** `running`: the worker now; `startupValue`: the active profile's processTasksOnStart as saved (whether it starts with the profile). */
  taskWorker: z.object({ running: z.boolean(), startupValue: z.boolean() }),
});
export type HealthStatus = z.infer<typeof HealthStatus>;

/** A process's memory as Node's `process.memoryUsage()` gives it, bytes. */
export const MemoryUsage = z.object({ rss: z.number(), heapTotal: z.number(), heapUsed: z.number(), external: z.number(), arrayBuffers: z.number() });
/** A process's CPU time as Node's `process.cpuUsage()` gives it, microseconds. */
export const CpuUsage = z.object({ user: z.number(), system: z.number() });
/** The log levels of the process behind an item, as the service reports them: `{ console, file, syslog }`. */
export const LoggerLevels = z.object({ console: z.string(), file: z.string(), syslog: z.union([z.string(), z.record(z.string(), z.unknown())]) });
export type LoggerLevels = z.infer<typeof LoggerLevels>;

/** `GET /health/server`: the console process as the service describes its own (Node's process facts). */
export const ServerHealth = z.object({
  /** The build: the version of the applications this console ships. */
  version: z.string(),
  /** The release the console serves, `2022.1`. */
  release: z.string(),
  arch: z.string(),
  platform: z.string(),
  versions: z.record(z.string(), z.string()),
  memoryUsage: MemoryUsage,
  cpuUsage: CpuUsage,
  /** Seconds the console process has been running. */
  uptime: z.number(),
  pid: z.number(),
  /** The applications' packages and the store's engine, with their versions. */
  dependencies: z.record(z.string(), z.string()),
});
export type ServerHealth = z.infer<typeof ServerHealth>;

/** `GET /health/system`: the machine (Node's os facts). */
export const SystemHealth = z.object({
  arch: z.string(),
  /** The operating system's release. */
  release: z.string(),
  /** Seconds the machine has been up. */
  uptime: z.number(),
  freemem: z.number(),
  totalmem: z.number(),
  loadavg: z.array(z.number()),
  cpus: z.array(z.object({ model: z.string(), speed: z.number(), times: z.object({ user: z.number(), nice: z.number(), sys: z.number(), idle: z.number(), irq: z.number() }) })),
});
export type SystemHealth = z.infer<typeof SystemHealth>;

/** What the console keeps of an adapter's last crash, for the operator. */
export const AdapterCrash = z.object({
  at: z.string(),
  exitCode: z.number().nullable(),
  signal: z.string().nullable(),
  /** The last lines the adapter wrote to stderr before it died. */
  stderr: z.array(z.string()),
  message: z.string(),
});
export type AdapterCrash = z.infer<typeof AdapterCrash>;

export const HealthItem = z.object({
  id: z.string(),
  package_id: z.string(),
  version: z.string(),
  type: z.enum(['Application', 'Adapter']),
  description: z.string(),
  routePrefix: z.string(),
  state: z.enum(['RUNNING', 'STOPPED', 'DEAD']),
  /** Why the state is what it is, when it is not plain RUNNING (a broken manifest, a crash loop). */
  detail: z.string().optional(),
  /** Adapters: whether the adapter reaches what it adapts, as the adapter itself answers. */
  connection: z.object({ state: z.enum(['ONLINE', 'OFFLINE', 'DEGRADED']), detail: z.string().optional() }).optional(),
  /** Adapters: true when `properties.stub` is set: the answers are the package's mock data, not a live system. */
  stub: z.boolean().optional(),
  /** Adapters: the last health check (on the schedule of `properties.healthcheck`). */
  lastHealthCheck: z.object({ at: z.string(), ok: z.boolean(), detail: z.string().optional() }).optional(),
  /** Applications: their own figures (jobs started, starts refused while stopped, task worker running). */
  figures: z.record(z.string(), z.union([z.number(), z.string(), z.boolean()])).optional(),
  /** Seconds the process behind the item has been up (0 when it does not run). */
  uptime: z.number(),
  /**
   * The uptime of the reading before this one of the same process run (0, its start, at the first;
   * 0 when it does not run): with cpuUsage, the CPU use between two readings is
   * (CPU now − CPU then) / (uptime − prevUptime), as the service documents.
   */
  prevUptime: z.number(),
  /**
   * Memory, CPU time and pid are numbers on every item, as the service's clients require (its MCP
   * server's models): where no process runs, 0 for each; a process that has not answered yet, 0 for
   * its memory and CPU time (core/health/process-readings.ts).
   */
  memoryUsage: MemoryUsage,
  cpuUsage: CpuUsage,
  pid: z.number(),
  logger: LoggerLevels,
  /** When the item was read, ms since the epoch. */
  timestamp: z.number(),
  /** Adapters: automatic restarts after crashes since the console opened the profile. */
  restartCount: z.number().optional(),
  lastCrash: AdapterCrash.nullable().optional(),
  /** Adapters: when the next automatic restart is due (ISO time), while one is scheduled. */
  nextRestartAt: z.string().optional(),
  methods: z.array(z.string()).optional(),
  /** Adapters: where the package was found: `shipped` with the console, the profile's `sdk`_dir, or the `data-dir`. */
  source: z.enum(['shipped', 'sdk', 'data-dir', 'simulated']).optional(),
  /** Adapters: true for a simulated instance (POST /adapters/simulate): its answers are its rules', not a live system's. */
  simulated: z.boolean().optional(),
  /**
   * The console's addition: the recent changes of state (and of an adapter's connection) this console saw,
   * oldest first, the last one the state now; at most 20, in memory since the console started.
   */
  history: z
    .array(z.object({ at: z.string(), state: z.enum(['RUNNING', 'STOPPED', 'DEAD']), connection: z.enum(['ONLINE', 'OFFLINE', 'DEGRADED']).optional() }))
    .optional(),
});
export type HealthItem = z.infer<typeof HealthItem>;

export const HealthList = z.object({ results: z.array(HealthItem), total: z.number() });
export type HealthList = z.infer<typeof HealthList>;

/** Fields the health lists filter and sort on (`name` is the item's id). */
export const HEALTH_FIELDS = ['name', 'id', 'package_id', 'version', 'type', 'description', 'routePrefix', 'state', 'connection'] as const;
export const HEALTH_SORT_FIELDS = [...HEALTH_FIELDS, 'uptime', 'pid', 'restartCount'] as const;
export type HealthField = (typeof HEALTH_FIELDS)[number];
export type HealthSortField = (typeof HEALTH_SORT_FIELDS)[number];

const fieldName = z.enum(HEALTH_FIELDS, { message: `expected one of ${HEALTH_FIELDS.join(', ')}` });

export const HealthQuery = z.object({
  contains: z.string().optional(),
  containsField: fieldName.optional(),
  equals: z.string().optional(),
  equalsField: fieldName.optional(),
  startsWith: z.string().optional(),
  startsWithField: fieldName.optional(),
  skip: z.coerce.number({ message: 'expected a whole number ≥ 0' }).int('expected a whole number ≥ 0').min(0, 'expected a whole number ≥ 0').default(0),
  limit: z.coerce
    .number({ message: 'expected a whole number from 1 to 1000' })
    .int('expected a whole number from 1 to 1000')
    .min(1, 'expected a whole number from 1 to 1000')
    .max(1000, 'expected a whole number from 1 to 1000')
    .default(25),
  sort: z.enum(HEALTH_SORT_FIELDS, { message: `expected one of ${HEALTH_SORT_FIELDS.join(', ')}` }).default('name'),
  order: z.coerce
    .number({ message: 'expected 1 (ascending) or -1 (descending)' })
    .refine((value) => value === 1 || value === -1, 'expected 1 (ascending) or -1 (descending)')
    .transform((value) => value)
    .default(1),
});
export type HealthQuery = z.output<typeof HealthQuery>;

const NameParam = z.object({ name: SafeName });

export const DeprecatedCall = z.object({
  method: z.string(),
  path: z.string(),
  item: z.string(),
  caller: z.string(),
  count: z.number(),
  firstAt: z.string(),
  lastAt: z.string(),
  /** Where the API stood at the release that answered the last call. */
  state: z.enum(['active', 'deprecated', 'removed']),
  deprecated: z.string().optional(),
  removal: z.string().optional(),
  replacements: z.array(z.object({ text: z.string(), method: z.string().optional(), path: z.string().optional() })),
});
export type DeprecatedCall = z.infer<typeof DeprecatedCall>;

export const healthOperations = defineOperations({
  'health.status': {
    method: 'GET',
    path: '/health/status',
    summary: "The service's status (host, server, services, apps and adapters running or degraded), with the console's release, active profile, store and task worker",
    output: HealthStatus,
  },
  'health.version': {
    method: 'GET',
    path: '/version',
    summary: "The service's version, as one JSON string (the one `/health/server` answers as `version`)",
    output: z.string(),
  },
  'health.server': {
    method: 'GET',
    path: '/health/server',
    summary: 'The console process: release and version, Node and its libraries, memory, cpu, uptime, pid, dependencies',
    output: ServerHealth,
  },
  'health.system': {
    method: 'GET',
    path: '/health/system',
    summary: 'The machine: operating system release, uptime, free and total memory, load averages, cpus',
    output: SystemHealth,
  },
  'health.applications': {
    method: 'GET',
    path: '/health/applications',
    summary: 'Health of the applications: state, uptime, memory, cpu and pid of the process behind each',
    query: HealthQuery,
    output: HealthList,
  },
  'health.application': {
    method: 'GET',
    path: '/health/applications/:name',
    summary: 'Health of one application',
    params: NameParam,
    output: HealthList,
  },
  'health.adapters': {
    method: 'GET',
    path: '/health/adapters',
    summary: 'Health of the adapters: state, connection, uptime, memory, cpu and pid of each adapter process, restarts, last crash',
    query: HealthQuery,
    output: HealthList,
  },
  'health.adapter': {
    method: 'GET',
    path: '/health/adapters/:name',
    summary: 'Health of one adapter',
    params: NameParam,
    output: HealthList,
  },
  'health.legacyServices': {
    method: 'GET',
    path: '/admin/services/health',
    summary: 'Removed API (deprecated 2021.2): health of all applications and adapters; use /health/adapters and /health/applications',
    output: HealthList,
  },
  'health.deprecatedCalls': {
    method: 'GET',
    path: '/health/deprecated-calls',
    summary: 'Calls to deprecated or removed APIs per caller, so custom applications that still use them can be found',
    output: z.object({ results: z.array(DeprecatedCall), total: z.number() }),
  },
});
