// The adapter operations (core/contract/adapters.ts) over the active profile's instances.
import type { Handler } from '../dispatch/dispatch';
import type { MethodSummary, PackageSummary } from '../contract/adapters';
import type { AdapterInstances } from './instances';
import type { AdapterPackage, PronghornMethod } from './package';
import { simulateMissing, type SimulateDeps } from './simulated/service';
import { recordingsHandlers } from './simulated/recording-handlers';

type Ops =
  | 'adapters.list'
  | 'adapters.get'
  | 'adapters.create'
  | 'adapters.import'
  | 'adapters.export'
  | 'adapters.update'
  | 'adapters.delete'
  | 'adapters.start'
  | 'adapters.stop'
  | 'adapters.restart'
  | 'adapters.packages'
  | 'adapters.sample'
  | 'adapters.simulate'
  | 'adapters.record'
  | 'adapters.recordings'
  | 'adapters.recording'
  | 'adapters.importRecording'
  | 'adapters.simulateRecording';

export interface AdaptersService {
  instances(): AdapterInstances;
  /** What POST /adapters/simulate reads of the profile besides its instances. */
  simulation?: Omit<SimulateDeps, 'instances'>;
}

/** The service reads the active profile's instances at each call (activating a profile replaces them). */
export function createAdaptersService(deps: { adapters: () => AdapterInstances; simulation?: Omit<SimulateDeps, 'instances'> }): AdaptersService {
  return { instances: deps.adapters, ...(deps.simulation ? { simulation: deps.simulation } : {}) };
}

export const methodSummary = (m: PronghornMethod): MethodSummary => ({
  name: m.name,
  ...(typeof m.summary === 'string' ? { summary: m.summary } : {}),
  ...(typeof m.description === 'string' ? { description: m.description } : {}),
  ...(typeof m.task === 'boolean' ? { task: m.task } : {}),
  input: m.input.map((i) => ({
    name: String(i.name),
    ...(typeof i.type === 'string' ? { type: i.type } : {}),
    ...(typeof i.info === 'string' ? { info: i.info } : {}),
    ...(typeof i.required === 'boolean' ? { required: i.required } : {}),
  })),
  ...(m.output ? { output: { ...(typeof m.output.name === 'string' ? { name: m.output.name } : {}), ...(typeof m.output.type === 'string' ? { type: m.output.type } : {}) } } : {}),
});

const packageSummary = (p: AdapterPackage): PackageSummary => ({
  name: p.name,
  export: p.export,
  title: p.title,
  version: p.version,
  source: p.source,
  dir: p.dir,
  ...(p.problem ? { problem: p.problem } : {}),
  methodCount: p.methods.length,
});

export function adaptersHandlers(service: AdaptersService): { [K in Ops]: Handler<K> } {
  const adapters = () => service.instances();
  const action = (verb: 'start' | 'stop' | 'restart') =>
    async ({ params }: { params: { name: string } }) => {
      await adapters()[verb](params.name);
      return adapters().manager.item(params.name);
    };
  return {
    'adapters.list': async () => {
      const results = adapters().list().map((v) => v.config);
      return { results, total: results.length };
    },
    'adapters.get': async ({ params }) => {
      const view = adapters().view(params.name);
      const pkg = adapters().packageOf(params.name);
      return {
        data: view.config,
        ...(pkg ? { package: packageSummary(pkg) } : {}),
        ...(view.problem ? { problem: view.problem } : {}),
        ...(pkg?.propertiesSchema ? { propertiesSchema: pkg.propertiesSchema } : {}),
        methods: pkg?.methods.map(methodSummary) ?? [],
        logs: adapters().manager.logs(params.name),
      };
    },
    'adapters.create': async ({ body }) => {
      const view = await adapters().create(body.properties);
      return { status: 'Created' as const, message: `adapter "${view.config.id}" created and started`, data: view.config };
    },
    'adapters.import': async ({ body }) => {
      const view = await adapters().create(body.properties);
      return { status: 'Created' as const, message: `adapter "${view.config.id}" imported and started`, data: view.config };
    },
    'adapters.export': async ({ params }) => adapters().view(params.name).config,
    'adapters.update': async ({ params, body }) => {
      const view = await adapters().update(params.name, body.properties);
      return { status: 'OK' as const, message: `adapter "${params.name}" properties saved`, data: view.config };
    },
    'adapters.delete': async ({ params }) => {
      await adapters().remove(params.name);
      return { status: 'OK' as const, message: `adapter "${params.name}" deleted` };
    },
    'adapters.start': action('start'),
    'adapters.stop': action('stop'),
    'adapters.restart': action('restart'),
    'adapters.packages': async ({ query }) => {
      const added = query.rescan === 'true' ? (await adapters().rescan()).added : undefined;
      const results = adapters().packageList().map(packageSummary);
      return { results, total: results.length, problems: adapters().problems(), ...(added ? { added } : {}) };
    },
    'adapters.sample': async ({ query }) => {
      const data = adapters().sample(query.package, query.name);
      const pkg = adapters().packageList().find((p) => p.name === query.package || p.export === query.package);
      return { data, ...(pkg?.propertiesSchema ? { propertiesSchema: pkg.propertiesSchema } : {}), methods: pkg?.methods.map(methodSummary) ?? [] };
    },
    'adapters.simulate': async ({ body }) => {
      const simulation = service.simulation ?? { workflows: async () => [], applicationRuns: () => false };
      const { results, transformations, problems } = await simulateMissing({ instances: adapters, ...simulation }, body);
      return { results, total: results.length, transformations, problems };
    },
    ...recordingsHandlers(adapters),
  };
}
