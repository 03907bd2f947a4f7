// Operations of adapters and applications, with the service's routes: service configs (list,
// get `{ data }`, create `{ properties: <service config> }`, edit properties, import, export,
// delete), start/stop/restart of adapter instances and of applications, and the adapter packages
// found for the active profile (with each one's sample service config, to create an instance).
import { z } from 'zod';
import { defineOperations } from './operation';
import { HealthItem } from './health';
import { RecordId, SafeName } from './ids';

/** An instance name: the service config's `id`, which workflow tasks name as `app` (the same rule in the body and the path). */
export const InstanceName = SafeName;
const NameParam = z.object({ name: InstanceName });
const AppNameParam = z.object({ name: SafeName });
/** A recording's id (a UUID the console made): never a path. */
const RecordingParam = z.object({ id: RecordId });

/** A service config as the service stores and exports it; fields the console does not use are kept. */
export const ServiceConfig = z
  .object({
    id: z.string(),
    type: z.string(),
    properties: z.record(z.string(), z.unknown()),
    brokers: z.array(z.unknown()),
    groups: z.array(z.unknown()),
    loggerProps: z.record(z.string(), z.unknown()).optional(),
  })
  .passthrough();
export type ServiceConfig = z.infer<typeof ServiceConfig>;

export const MethodSummary = z.object({
  name: z.string(),
  summary: z.string().optional(),
  description: z.string().optional(),
  task: z.boolean().optional(),
  input: z.array(z.object({ name: z.string(), type: z.string().optional(), info: z.string().optional(), required: z.boolean().optional() })),
  output: z.object({ name: z.string().optional(), type: z.string().optional() }).optional(),
});
export type MethodSummary = z.infer<typeof MethodSummary>;

export const PackageSummary = z.object({
  name: z.string(),
  export: z.string(),
  title: z.string(),
  version: z.string(),
  source: z.enum(['shipped', 'sdk', 'data-dir', 'simulated']),
  dir: z.string(),
  problem: z.string().optional(),
  methodCount: z.number(),
});
export type PackageSummary = z.infer<typeof PackageSummary>;

export const AdapterDetail = z.object({
  data: ServiceConfig,
  package: PackageSummary.optional(),
  problem: z.string().optional(),
  propertiesSchema: z.record(z.string(), z.unknown()).optional(),
  methods: z.array(MethodSummary),
  logs: z.array(z.object({ at: z.string(), level: z.string(), message: z.string() })),
});
export type AdapterDetail = z.infer<typeof AdapterDetail>;

export const SimulatedInstance = z.object({
  id: z.string(),
  type: z.string(),
  mode: z.enum(['simulated', 'stub']),
  methods: z.array(z.string()),
  workflows: z.array(z.string()),
  status: z.enum(['created', 'extended']),
});
export type SimulatedInstance = z.infer<typeof SimulatedInstance>;

export const RecordingSummary = z.object({
  _id: z.string(),
  adapter: z.string(),
  type: z.string(),
  startedAt: z.number(),
  until: z.number(),
  maxCalls: z.number(),
  callCount: z.number(),
  /** Still recording. */
  recording: z.boolean(),
});
export const Recording = RecordingSummary.omit({ callCount: true, recording: true }).extend({
  calls: z.array(z.object({ at: z.number(), method: z.string(), args: z.record(z.string(), z.unknown()), ok: z.boolean(), answer: z.unknown(), durationMs: z.number(), output: z.string().optional() })),
});

const Answer = z.object({ status: z.enum(['OK', 'Created']), message: z.string(), data: ServiceConfig });
const ConfigBody = z.object({ properties: z.record(z.string(), z.unknown(), { message: 'expected the service config { id, type, properties, brokers, groups }' }) });

export const adaptersOperations = defineOperations({
  'adapters.list': {
    method: 'GET',
    path: '/adapters',
    summary: 'The service configs of the adapter instances (secrets masked)',
    output: z.object({ results: z.array(ServiceConfig), total: z.number() }),
  },
  'adapters.get': {
    method: 'GET',
    path: '/adapters/:name',
    summary: "One adapter's service config ({ data }), its package, properties schema, methods and recent log lines",
    params: NameParam,
    output: AdapterDetail,
  },
  'adapters.create': {
    method: 'POST',
    path: '/adapters',
    summary: 'Create an adapter instance from a service config { properties: { id, type, properties, brokers, groups } }; validated against its package\'s propertiesSchema.json, then started',
    body: ConfigBody,
    output: Answer,
  },
  'adapters.import': {
    method: 'POST',
    path: '/adapters/import',
    summary: 'Import an exported service config ({ properties: <service config> }); secrets must be set again',
    body: ConfigBody,
    output: Answer,
  },
  'adapters.export': {
    method: 'GET',
    path: '/adapters/:name/export',
    summary: "An adapter's service config in the service's shape, secrets masked",
    params: NameParam,
    output: ServiceConfig,
  },
  'adapters.update': {
    method: 'PUT',
    path: '/adapters/:name/properties',
    summary: "Replace an adapter's properties ({ properties }: its properties, or its whole service config); a running adapter restarts with them",
    params: NameParam,
    body: ConfigBody,
    output: Answer,
  },
  'adapters.delete': {
    method: 'DELETE',
    path: '/adapters/:name',
    summary: 'Stop an adapter instance and delete its service config',
    params: NameParam,
    output: z.object({ status: z.literal('OK'), message: z.string() }),
  },
  'adapters.start': {
    method: 'PUT',
    path: '/adapters/:name/start',
    summary: 'Start an adapter instance (and keep it started across restarts); answers its health once it is up',
    params: NameParam,
    output: HealthItem,
  },
  'adapters.stop': {
    method: 'PUT',
    path: '/adapters/:name/stop',
    summary: 'Stop an adapter instance (it stays stopped across restarts until started)',
    params: NameParam,
    output: HealthItem,
  },
  'adapters.restart': {
    method: 'PUT',
    path: '/adapters/:name/restart',
    summary: 'Stop and start an adapter instance, clearing its crash backoff',
    params: NameParam,
    output: HealthItem,
  },
  'adapters.packages': {
    method: 'GET',
    path: '/adapter-packages',
    summary:
      "Adapter packages found in the profile's sdk_dir, the data directory's adapters folder and the console's own; rescan=true looks again first (a package added since the profile opened; an instance that lacked its package gets it)",
    query: z.object({ rescan: z.enum(['true', 'false']).optional() }),
    output: z.object({ results: z.array(PackageSummary), total: z.number(), problems: z.array(z.string()), added: z.array(z.string()).optional() }),
  },
  'adapters.sample': {
    method: 'GET',
    path: '/adapter-packages/sample',
    summary: "A new instance's service config from a package's sampleProperties.json, with the package's properties schema and methods",
    query: z.object({ package: z.string().min(1), name: InstanceName.optional() }),
    output: z.object({ data: ServiceConfig, propertiesSchema: z.record(z.string(), z.unknown()).optional(), methods: z.array(MethodSummary) }),
  },
  'adapters.simulate': {
    method: 'POST',
    path: '/adapters/simulate',
    summary:
      "For every adapter (or device-bound application method) the chosen workflows call and the profile lacks, an instance that answers: the installed package in its own stub mode, else a simulated instance named as the tasks call it (adapter_id, or the app) answering every method they call ({ status, code, response } unless its rules say otherwise)",
    body: z
      .object({ workflows: z.array(z.string().min(1)).min(1).optional(), all: z.boolean().optional() })
      .refine((b) => b.all === true || (b.workflows?.length ?? 0) > 0, { message: 'give { "workflows": [names] } or { "all": true }', path: ['workflows'] }),
    /** `transformations`: the ids of stand-in JST documents made for transformations the workflows name and the profile lacks. */
    output: z.object({ results: z.array(SimulatedInstance), total: z.number(), transformations: z.array(z.string()), problems: z.array(z.string()) }),
  },
  'adapters.record': {
    method: 'POST',
    path: '/adapters/:name/record',
    summary: "Record a real adapter instance's calls (method, arguments and answer with secrets masked, duration) for `seconds` (300) or `calls` (1000), whichever ends first",
    params: NameParam,
    body: z.object({ seconds: z.number().int().min(1).max(86_400).optional(), calls: z.number().int().min(1).max(100_000).optional() }),
    output: RecordingSummary,
  },
  'adapters.recordings': {
    method: 'GET',
    path: '/adapter-recordings',
    summary: 'The recordings of adapter calls kept in the profile, newest first (without their calls)',
    output: z.object({ results: z.array(RecordingSummary), total: z.number() }),
  },
  'adapters.recording': {
    method: 'GET',
    path: '/adapter-recordings/:id',
    summary: 'One recording with its calls: the file to export',
    params: RecordingParam,
    output: Recording,
  },
  'adapters.importRecording': {
    method: 'POST',
    path: '/adapter-recordings/import',
    summary: 'Import an exported recording ({ recording }), kept under a new id',
    body: z.object({ recording: z.record(z.string(), z.unknown(), { message: 'expected an exported recording { adapter, type, calls }' }) }),
    output: RecordingSummary,
  },
  'adapters.simulateRecording': {
    method: 'POST',
    path: '/adapter-recordings/:id/simulate',
    summary: "Make a simulated instance from a recording (named `name`, else as the recorded instance): per method it replays the answer whose recorded arguments match the call best",
    params: RecordingParam,
    body: z.object({ name: InstanceName.optional() }),
    output: Answer,
  },
  'applications.start': {
    method: 'PUT',
    path: '/applications/:name/start',
    summary: 'Start an application (and keep it started across restarts)',
    params: AppNameParam,
    output: HealthItem,
  },
  'applications.stop': {
    method: 'PUT',
    path: '/applications/:name/stop',
    summary: 'Stop an application: what it serves is refused (503) until it is started again',
    params: AppNameParam,
    output: HealthItem,
  },
  'applications.restart': {
    method: 'PUT',
    path: '/applications/:name/restart',
    summary: 'Stop and start an application',
    params: AppNameParam,
    output: HealthItem,
  },
});
