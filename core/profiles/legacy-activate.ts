// The legacy `activate` setting (release notes 1.2 and 9.2). Where it lived:
//   2019.2 and 2019.3: `properties.activate` in the service config of the task worker;
//   2020.1:            `properties.activate` in the service config of the workflow engine;
//   2020.2 and later:  `processTasksOnStart` in properties.json (2022.1 removed `activate`).
// A service config is an object with a `properties` object. Whose it is comes from its
// identifying fields, read in this order: `type`, `name`, `model`, `id`, `package_id`, e.g.
// `{"type": "TaskWorker"}`, `{"model": "@itential/app-workflow_engine"}`, `{"name": "WorkFlowEngine"}`:
// a value naming a task worker (task worker, task_worker, TaskWorker) makes it the task
// worker's; one naming the workflow engine (workflow engine, workflow_engine, WorkFlowEngine)
// the workflow engine's. A config that names neither is read as the workflow engine's (the
// last release that kept the setting in a service config), and the finding says so.
// An `activate` at the top of a properties.json (or of a bare object) is place `properties`.
import type { LegacyActivateFinding } from '../contract/profiles';

export type { LegacyActivateFinding } from '../contract/profiles';

const RELEASES = {
  'task-worker': '2019.2 and 2019.3',
  'workflow-engine': '2020.1',
  properties: 'none',
} as const;

const IDENTITY_FIELDS = ['type', 'name', 'model', 'id', 'package_id'] as const;
const TASK_WORKER = /task[\s_-]?worker/i;
const WORKFLOW_ENGINE = /work[\s_-]?flow[\s_-]?engine/i;
const PROPERTIES_MARKERS = ['processTasksOnStart', 'mongoProps', 'pathProps', 'serverName'];

export const REPLACEMENT = 'processTasksOnStart (properties.json)';

type Owner = { place: 'task-worker' | 'workflow-engine'; named?: string };

function ownerOf(config: Record<string, unknown>): Owner {
  for (const field of IDENTITY_FIELDS) {
    const value = config[field];
    if (typeof value !== 'string') continue;
    if (TASK_WORKER.test(value)) return { place: 'task-worker', named: `${field} "${value}"` };
    if (WORKFLOW_ENGINE.test(value)) return { place: 'workflow-engine', named: `${field} "${value}"` };
  }
  return { place: 'workflow-engine' };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `true`/`false`, and the strings and numbers older files used for them. */
function asBoolean(value: unknown): { value: boolean; note?: string } {
  if (typeof value === 'boolean') return { value };
  if (value === 'true' || value === 1 || value === '1') return { value: true, note: `read ${JSON.stringify(value)} as true` };
  if (value === 'false' || value === 0 || value === '0') return { value: false, note: `read ${JSON.stringify(value)} as false` };
  return { value: Boolean(value), note: `${JSON.stringify(value)} is not true or false; read as ${Boolean(value)}` };
}

function finding(place: LegacyActivateFinding['place'], jsonPath: string, raw: unknown, whose: string): LegacyActivateFinding {
  const { value, note } = asBoolean(raw);
  const where = place === 'properties' ? 'properties.json' : `${whose} at ${jsonPath}`;
  const message =
    `\`activate\` = ${value} in ${where} was removed in 2022.1 and is not read any more; ` +
    `its replacement is ${REPLACEMENT} (processTasksOnStart = ${value} keeps the setting)` +
    (note ? `; ${note}` : '');
  return { place, releases: RELEASES[place], jsonPath, value, message };
}

/**
 * Every legacy `activate` in a JSON document: a service config, a list of them (a dump of the
 * service configs), an object holding them, or a properties.json.
 */
export function findLegacyActivate(json: unknown): LegacyActivateFinding[] {
  const found: LegacyActivateFinding[] = [];
  if (isObject(json) && 'activate' in json && !isObject(json.properties)) {
    const looksLikeProperties = PROPERTIES_MARKERS.some((key) => key in json);
    if (looksLikeProperties) found.push(finding('properties', '$.activate', json.activate, 'properties.json'));
    else found.push(finding('workflow-engine', '$.activate', json.activate, describeOwner({ place: 'workflow-engine' }, true)));
  }
  walk(json, '$', 0, found);
  return found;
}

function describeOwner(owner: Owner, bare = false): string {
  const whose = owner.place === 'task-worker' ? "the task worker's service config" : "the workflow engine's service config";
  if (owner.named) return `${whose} (${owner.named})`;
  return bare
    ? `${whose} (a bare properties block that names no service; read as the workflow engine's, 2020.1)`
    : `${whose} (the config names no service in type, name, model or id; read as the workflow engine's, 2020.1)`;
}

function walk(node: unknown, jsonPath: string, depth: number, found: LegacyActivateFinding[]) {
  if (depth > 8) return;
  if (Array.isArray(node)) {
    node.forEach((item, index) => walk(item, `${jsonPath}[${index}]`, depth + 1, found));
    return;
  }
  if (!isObject(node)) return;
  if (isObject(node.properties) && 'activate' in node.properties) {
    const owner = ownerOf(node);
    found.push(finding(owner.place, `${jsonPath}.properties.activate`, node.properties.activate, describeOwner(owner)));
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties') continue;
    if (typeof value === 'object' && value !== null) walk(value, `${jsonPath}.${key}`, depth + 1, found);
  }
}

/** The warnings a loaded profile or an imported file gets for each legacy `activate` it carries. */
export function legacyActivateWarnings(properties: Record<string, unknown>, findings = findLegacyActivate(properties)): string[] {
  const current = properties.processTasksOnStart;
  return findings.map((f) => {
    if (typeof current !== 'boolean') {
      return `${f.message}. processTasksOnStart is not set, so the default (true: work tasks at startup) applies; migrate to carry the setting over.`;
    }
    if (current !== f.value) {
      return `${f.message}. It contradicts processTasksOnStart (${current}): processTasksOnStart wins, so this server ${current ? 'works' : 'does not work'} tasks at startup.`;
    }
    return `${f.message}. processTasksOnStart is already ${current}: remove activate to silence this warning.`;
  });
}
