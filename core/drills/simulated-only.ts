// A drill of the operator's own workflows calls simulated instances only. Before anything is
// copied or simulated, each site is read: an adapter instance the chosen workflows' tasks would
// reach there that is real (neither simulated nor in its package's stub mode) stops the drill,
// naming it, as does a site whose profile does not let jobs use simulated instances. On two real
// sites this keeps a rehearsal from calling a device.
import { ProfileProperties } from '../contract/profiles';
import { simulationAllowed } from '../profiles/runtime-config';
import type { ChosenWorkflows } from './own-workflows';
import type { Site } from './site';

type Doc = Record<string, unknown>;
const isObject = (value: unknown): value is Doc => value !== null && typeof value === 'object' && !Array.isArray(value);

interface Instance {
  id: string;
  type: string;
  properties: Doc;
  simulation?: unknown;
}

const answersSafely = (i: Instance) => i.simulation !== undefined || i.properties.stub === true;

/**
 * The instances a task may reach on a site, as the engine resolves it: the instance its `app`
 * names, else the one of that type its literal `adapter_id` names, else every instance of the type
 * (one chosen at run time, or by an `adapter_id` read from a variable).
 */
function reached(task: Doc, instances: Instance[]): Instance[] {
  const app = typeof task.app === 'string' ? task.app : '';
  const named = instances.find((i) => i.id === app);
  if (named) return [named];
  const ofType = instances.filter((i) => i.type === app);
  const incoming = isObject(task.variables) && isObject(task.variables.incoming) ? task.variables.incoming : {};
  const id = incoming.adapter_id;
  if (typeof id === 'string' && id !== '' && !id.startsWith('$var.')) return ofType.filter((i) => i.id === id);
  return ofType;
}

/** Why the chosen workflows cannot run on simulated instances only on these sites (empty: they can). */
export async function simulatedOnlyProblems(chosen: ChosenWorkflows, sites: Site[]): Promise<string[]> {
  const problems: string[] = [];
  for (const site of sites) {
    const health = await site.call<{ profile: string }>('GET', '/health/status');
    const { profile } = await site.call<{ profile: unknown }>('GET', `/profiles/${encodeURIComponent(health.profile)}`);
    const parsed = ProfileProperties.safeParse(profile);
    if (!parsed.success || !simulationAllowed(parsed.data)) {
      problems.push(`${site.name}: profile "${health.profile}" does not let jobs use simulated adapter instances (fix: set "simulationProps": { "allowJobs": true } in it for the drill)`);
    }
    const { results } = await site.call<{ results: Instance[] }>('GET', '/adapters');
    for (const [name, workflow] of chosen.workflows) {
      for (const [taskId, task] of Object.entries(isObject(workflow.tasks) ? workflow.tasks : {})) {
        // A manual task waits for an operator: it calls nothing.
        if (!isObject(task) || task.type === 'manual' || typeof task.app !== 'string') continue;
        for (const real of reached(task, results).filter((i) => !answersSafely(i))) {
          problems.push(
            `${site.name}: task ${taskId} (${task.app}.${String(task.name)}) of "${name}" would call the real adapter instance "${real.id}" (fix: run these workflows in a lab drill, or between sites where "${real.id}" is simulated or in its package's stub mode)`,
          );
        }
      }
    }
  }
  return problems;
}
