// A lab drill with the operator's own workflows: the chosen workflows of the profile (with the
// child workflows and transformations they need) copied into the lab's store, what they lack
// simulated (POST /adapters/simulate), and the calls each simulated instance answered counted
// per method from the jobs' task records (each record a simulated answered names its instance).
import { sampleFromSchema } from '../contract/transformations';
import { SiteError, type Site } from './site';

type Doc = Record<string, unknown>;
const isObject = (value: unknown): value is Doc => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Where the chosen workflows are read from (the console the drill runs on). */
export interface WorkflowSource {
  workflow(name: string): Promise<Doc | undefined>;
  transformation(id: string): Promise<Doc | undefined>;
}

/** A source read over a console's API: 404 is "not there". */
export function siteSource(site: Site): WorkflowSource {
  const read = async (path: string): Promise<Doc | undefined> => {
    try {
      const { warnings: _warnings, needs: _needs, ...doc } = await site.call<Doc>('GET', path);
      return doc;
    } catch (error) {
      if (error instanceof SiteError && error.code === 'not_found') return undefined;
      throw error;
    }
  };
  return {
    workflow: (name) => read(`/workflows/${encodeURIComponent(name)}`),
    transformation: (id) => read(`/transformations/${encodeURIComponent(id)}`),
  };
}

/** The names the source has no workflow of. */
export async function unknownWorkflows(source: WorkflowSource, names: string[]): Promise<string[]> {
  const unknown: string[] = [];
  for (const name of new Set(names)) if (!(await source.workflow(name))) unknown.push(name);
  return unknown;
}

/** The literal child workflows (childJob) and transformations (tr_id) a workflow's tasks name. */
function references(workflow: Doc) {
  const children: string[] = [];
  const transformations: string[] = [];
  for (const task of Object.values(isObject(workflow.tasks) ? workflow.tasks : {})) {
    const incoming = isObject(task) && isObject(task.variables) && isObject(task.variables.incoming) ? task.variables.incoming : {};
    const literal = (value: unknown) => (typeof value === 'string' && value !== '' && !value.startsWith('$var.') ? value : undefined);
    const child = isObject(task) && task.name === 'childJob' ? literal(incoming.workflow) : undefined;
    if (child) children.push(child.replace(/^@[0-9a-fA-F]{24}: /, ''));
    const tr = literal(incoming.tr_id);
    if (tr) transformations.push(tr);
  }
  return { children, transformations };
}

/** The chosen workflows with the child workflows they start and the transformations they name, read from the source. */
export interface ChosenWorkflows {
  workflows: Map<string, Doc>;
  transformations: Map<string, Doc>;
}

export async function collectWorkflows(source: WorkflowSource, names: string[]): Promise<ChosenWorkflows> {
  const workflows = new Map<string, Doc>();
  const transformations = new Map<string, Doc>();
  const queue = [...names];
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    if (workflows.has(name)) continue;
    const doc = await source.workflow(name);
    if (!doc) continue; // A child the profile lacks stays a need the readiness check names.
    workflows.set(name, doc);
    const refs = references(doc);
    queue.push(...refs.children);
    for (const id of refs.transformations) {
      const tr = transformations.has(id) ? undefined : await source.transformation(id);
      if (tr) transformations.set(id, tr);
    }
  }
  return { workflows, transformations };
}

/**
 * Copies each chosen workflow and transformation to every site that lacks it, in turn: sites on
 * one database get it once (the next site already reads it), sites each on its own store each get
 * it. What a site has already (its own version of a workflow of that name) is never overwritten.
 * Answers, per site, what was copied to it.
 */
async function copyWhereMissing(chosen: ChosenWorkflows, sites: Site[]): Promise<Map<Site, string[]>> {
  const copied = new Map<Site, string[]>();
  for (const site of sites) {
    const source = siteSource(site);
    const done: string[] = [];
    const transformations: Doc[] = [];
    for (const [id, tr] of chosen.transformations) if (!(await source.transformation(id))) transformations.push(tr);
    if (transformations.length) await site.call('POST', '/transformations/import', { transformations, overwrite: true });
    for (const tr of transformations) done.push(`transformation "${String(tr.name ?? tr._id)}" copied`);
    for (const [name, doc] of chosen.workflows) {
      if (await source.workflow(name)) continue;
      await site.call('POST', '/workflows', doc);
      done.push(`workflow "${name}" copied`);
    }
    copied.set(site, done);
  }
  return copied;
}

/**
 * Copies the chosen workflows, their child workflows and transformations to the sites that lack
 * them, then simulates what they lack on every site. Answers the step's detail and, per site, the
 * changes made to it (what was copied, the simulated instances made).
 */
export async function copyAndSimulate(chosen: ChosenWorkflows, sites: Site[]): Promise<{ detail: string; changes: Map<Site, string[]> }> {
  const { workflows, transformations } = chosen;
  const changes = await copyWhereMissing(chosen, sites);
  const where = sites.map((site) => {
    const copies = changes.get(site)?.length ?? 0;
    return copies ? `${copies} copied to ${site.name}` : `${site.name} had them already`;
  });
  const made: string[] = [];
  const created = new Set<string>();
  for (const site of sites) {
    const answer = await site.call<{ results: { id: string; mode: string; status: string }[] }>('POST', '/adapters/simulate', { workflows: [...workflows.keys()] });
    for (const r of answer.results) made.push(`${r.id} (${r.mode}) on ${site.name}`);
    for (const r of answer.results) changes.get(site)?.push(`${r.mode} instance "${r.id}" ${r.status}`);
    // Only an instance the drill made gets the drill's latency: an operator's own rules are left as they are.
    for (const r of answer.results) if (r.mode === 'simulated' && r.status === 'created') created.add(r.id);
  }
  for (const id of created) await withLatency(sites, id);
  const names = [...workflows.keys()].map((n) => `"${n}"`).join(', ');
  return { detail: `${workflows.size} workflows (${names}) and ${transformations.size} transformations copied where missing (${where.join(', ')}); simulated: ${made.join(', ') || 'nothing was missing'}`, changes };
}

/** How long a simulated call takes where its rule does not say: as the ledger's, a side effect that keeps tasks in flight at the failure. */
export const SIMULATED_CALL_MS = 100;

/** Gives every rule of a simulated instance without a latency the drill's (a method with no rule gets one), on every site. */
async function withLatency(sites: Site[], id: string) {
  const [first] = sites;
  if (!first) return;
  const config = await first.call<Doc>('GET', `/adapters/${encodeURIComponent(id)}/export`);
  const simulation = isObject(config.simulation) ? config.simulation : {};
  const methods = isObject(simulation.methods) ? simulation.methods : {};
  const slowed = Object.fromEntries(
    Object.entries(methods).map(([method, entry]) => {
      const rules = isObject(entry) && Array.isArray(entry.rules) && entry.rules.length ? entry.rules : [{}];
      return [method, { ...(isObject(entry) ? entry : {}), rules: rules.map((rule: unknown) => (isObject(rule) && rule.latencyMs === undefined ? { ...rule, latencyMs: SIMULATED_CALL_MS } : rule)) }];
    }),
  );
  const properties = { ...config, simulation: { ...simulation, methods: slowed } };
  for (const site of sites) await site.call('PUT', `/adapters/${encodeURIComponent(id)}/properties`, { properties });
}

/** The variables a job of a chosen workflow starts with: a sample of its inputSchema. */
export async function sampleVariables(site: Site, name: string): Promise<Doc> {
  const doc = await site.call<Doc>('GET', `/workflows/${encodeURIComponent(name)}`);
  const sample = doc.inputSchema === undefined ? {} : sampleFromSchema(doc.inputSchema);
  return isObject(sample) ? sample : {};
}

export interface SimulatedCallCount {
  instance: string;
  method: string;
  calls: number;
}

/** Per simulated instance and method, the calls its jobs' task records show it answered. */
export function countSimulatedCalls(jobs: { taskRuns: { name?: string; simulated?: string; status: string }[] }[]): SimulatedCallCount[] {
  const counts = new Map<string, SimulatedCallCount>();
  for (const job of jobs) {
    for (const task of job.taskRuns) {
      if (!task.simulated) continue;
      const key = `${task.simulated}\u0000${task.name ?? ''}`;
      const count = counts.get(key) ?? { instance: task.simulated, method: task.name ?? '', calls: 0 };
      count.calls++;
      counts.set(key, count);
    }
  }
  return [...counts.values()].sort((a, b) => a.instance.localeCompare(b.instance) || a.method.localeCompare(b.method));
}
