// POST /adapters/simulate: for every adapter (or device-bound application method) the chosen
// workflows call and the profile lacks, an instance that answers: the package's own stub mode
// where the package is installed (sdk_dir), a simulated instance otherwise. An existing simulated
// instance gets the methods it lacked; its rules are kept.
import { ConsoleError, errorMessage } from '../../errors';
import type { AdapterInstances } from '../instances';
import { checkShape, type ServiceConfig } from '../service-config';
import { simulationOf, type Simulation } from './rules';
import { expectedResponses, instanceOfTask, simulationNeeds, withChildWorkflows, type Answerers, type Need, type WorkflowTasks } from './needs';
import { simulateTransformations, type TransformationPort } from './transformations';

export interface SimulateDeps {
  instances: () => AdapterInstances;
  /** The profile's workflows (name and tasks). */
  workflows: () => Promise<WorkflowTasks[]>;
  /** Whether the console runs an application's method itself (WorkFlowEngine, MOP, …). */
  applicationRuns: (app: string, method: string) => boolean;
  /** Whether the console has the application at all (its manual tasks wait for an operator). */
  applicationKnown?: (app: string) => boolean;
  /** Where stand-ins for transformations the workflows name and the profile lacks are saved. */
  transformations?: TransformationPort;
}

/** `mode` simulated: answered by its rules; stub: the installed package in its own stub mode. */
export type { SimulatedInstance } from '../../contract/adapters';
import type { SimulatedInstance } from '../../contract/adapters';

export interface SimulateRequest {
  workflows?: string[];
  all?: boolean;
}

function answerers(instances: AdapterInstances, applicationRuns: SimulateDeps['applicationRuns'], applicationKnown: SimulateDeps['applicationKnown']): Answerers {
  const callable = new Set(instances.callable());
  return {
    instance(name) {
      const known = instances.manager.instance(name);
      if (!known) return undefined;
      const methods = new Set(known.pkg?.methods.map((m) => m.name) ?? []);
      return { type: known.config.type, simulated: simulationOf(known.config) !== undefined, answers: (method) => methods.has(method) };
    },
    adapterType: (app) => (callable.has(app) ? (method) => instances.methods(app)?.includes(method) ?? false : undefined),
    applicationRuns,
    ...(applicationKnown ? { applicationKnown } : {}),
  };
}

async function chosenWorkflows(deps: SimulateDeps, request: SimulateRequest): Promise<WorkflowTasks[]> {
  const all = await deps.workflows();
  if (request.all === true) return all;
  const names = request.workflows ?? [];
  if (!names.length) throw new ConsoleError('bad_input', 'body: give { "workflows": [names] } or { "all": true }', { issues: [{ path: 'body.workflows', message: 'expected workflow names' }] });
  const byName = new Map(all.map((w) => [w.name, w]));
  const unknown = names.filter((name) => !byName.has(name));
  if (unknown.length) throw new ConsoleError('not_found', `body.workflows: no workflow named ${unknown.map((n) => `"${n}"`).join(', ')}`);
  // What a job of them runs: the workflows their childJob tasks start too (transitively).
  return withChildWorkflows(names.flatMap((name) => byName.get(name) ?? []), all);
}

export async function simulateMissing(
  deps: SimulateDeps,
  request: SimulateRequest,
): Promise<{ results: SimulatedInstance[]; transformations: string[]; problems: string[] }> {
  const instances = deps.instances();
  const workflows = await chosenWorkflows(deps, request);
  const needs = simulationNeeds(workflows, answerers(instances, deps.applicationRuns, deps.applicationKnown));
  const results: SimulatedInstance[] = [];
  const stand = deps.transformations ? await simulateTransformations(workflows, deps.transformations) : { created: [], problems: [] };
  const problems: string[] = [...stand.problems];
  const expected = expectedResponses(workflows, instanceOfTask);
  for (const need of needs) {
    try {
      results.push(await provide(instances, need, expected));
    } catch (error) {
      problems.push(`${need.id} (${need.type}): ${errorMessage(error)}`);
    }
  }
  return { results, transformations: stand.created, problems };
}

async function provide(instances: AdapterInstances, need: Need, expected: Map<string, Record<string, unknown>>): Promise<SimulatedInstance> {
  const base = { id: need.id, type: need.type, methods: [...need.methods].sort(), workflows: [...need.workflows].sort() };
  const known = instances.manager.instance(need.id);
  const pkg = known ? undefined : instances.packageList().find((p) => !p.problem && (p.export === need.type || p.title === need.type || p.name === need.type));
  if (pkg && pkg.source !== 'simulated') {
    // As today: the installed package answers with its own mock data.
    const sample = instances.sample(pkg.name, need.id);
    await instances.create({ ...sample, type: pkg.export, properties: { ...sample.properties, stub: true } });
    return { ...base, mode: 'stub', status: 'created' };
  }
  const before = known ? simulationOf(known.config) : undefined;
  // Each method's outgoing variable as a pronghorn.json of the type names it (a package that is not
  // runnable still declares its methods); unknown, the calling task's declared outgoing takes the answer.
  const schemas = instances.packageList().filter((p) => p.export === need.type || p.title === need.type || p.name === need.type);
  const outputOf = (method: string) => schemas.flatMap((p) => p.methods).find((m) => m.name === method && typeof m.output?.name === 'string' && m.output.name !== '')?.output?.name;
  const simulation: Simulation = {
    workflows: [...new Set([...(before?.workflows ?? []), ...need.workflows])].sort(),
    // A method the workflows evaluate answers what they expect on their way to success (an editable rule).
    methods: {
      ...Object.fromEntries([...need.methods].map((m) => {
        const response = expected.get(`${need.id}\u0000${m}`);
        const output = outputOf(m);
        return [m, { rules: response ? [{ response }] : [], ...(output ? { output } : {}) }];
      })),
      ...(before?.methods ?? {}),
    },
  };
  const config: ServiceConfig = known
    ? { ...known.config, simulation }
    : checkShape({ id: need.id, type: need.type, properties: { id: need.id }, brokers: [], groups: [], simulation }, `simulated adapter "${need.id}"`);
  await instances.saveSimulated(config);
  return { ...base, mode: 'simulated', status: known ? 'extended' : 'created' };
}
