// The readiness check of a drill, before any change: each item passes or fails with the fix.
// Items a site cannot answer (an application it does not report) are `skipped`, saying why.
import { randomBytes } from 'node:crypto';
import { SiteError, type Site } from './site';
import { backupReadiness } from './backup-readiness';
import { errorMessage } from '../errors';

/** warn: the drill still runs, the operator should look (an old backup). */
export type CheckState = 'pass' | 'fail' | 'warn' | 'skipped';
export interface ReadinessItem {
  id: string;
  title: string;
  state: CheckState;
  detail: string;
  /** What to change for the item to pass. */
  fix?: string;
}

interface WorkersStatus {
  taskWorker: { running: boolean; startupValue: boolean };
  servers: { serverId: string; serverName: string; taskWorker: boolean; alive: boolean; self: boolean }[];
}
interface HealthStatus {
  serverId: string;
  serverName: string;
  profile: string;
}

/** Stopped on the standby by the Manual Failover procedure. */
export const FAILOVER_APPLICATIONS = ['OperationsManager', 'AutomationCatalog'];
export const CLOCK_BOUND_MS = 2_000;

export interface ReadinessInput {
  active: Site;
  standby: Site;
  /** Workflows that must run on the standby: every adapter and method they need there (live or stub). */
  workflows: string[];
}

interface MissingPart {
  kind: string;
  name: string;
  label: string;
}

/** One item per workflow: on the standby, with nothing missing (the standby's own `needs`, from GET /workflows). */
async function workflowsReady(standby: Site, workflows: string[]): Promise<ReadinessItem[]> {
  const { items: list } = await standby.call<{ items: { name: string; needs: MissingPart[] }[] }>('GET', '/workflows');
  const byName = new Map(list.map((w) => [w.name, w]));
  return workflows.map((name) => {
    const id = `workflow:${name}`;
    const title = `Standby can run workflow "${name}"`;
    const found = byName.get(name);
    if (!found) return { id, title, state: 'fail', detail: `${standby.name} has no workflow "${name}"`, fix: `import "${name}" on ${standby.name} (POST /workflows), or point both sites at the same database` };
    if (found.needs.length === 0) return { id, title, state: 'pass', detail: 'every adapter, method and application it needs is there' };
    const fixes = found.needs.map((n) =>
      n.kind === 'adapter'
        ? `create an adapter instance "${n.name}" on ${standby.name} (live, or with "stub": true for a drill)`
        : n.kind === 'method'
          ? `give ${standby.name} the method ${n.name} (the adapter package or version that has it)`
          : `add the ${n.kind} ${n.name} on ${standby.name}`,
    );
    return { id, title, state: 'fail', detail: `${standby.name} lacks ${found.needs.map((n) => n.label).join(', ')}`, fix: fixes.join('; ') };
  });
}

export async function checkReadiness({ active, standby, workflows }: ReadinessInput): Promise<ReadinessItem[]> {
  const items: ReadinessItem[] = [];
  const health = new Map<Site, HealthStatus>();
  for (const site of [active, standby]) {
    try {
      health.set(site, await site.call<HealthStatus>('GET', '/health/status'));
    } catch (error) {
      items.push({ id: `answers:${site.name}`, title: `The ${site.name} site answers`, state: 'fail', detail: errorMessage(error), fix: `Start the ${site.name} console, or correct its URL and token` });
    }
  }
  const activeHealth = health.get(active);
  const standbyHealth = health.get(standby);
  if (!activeHealth || !standbyHealth) return items;
  items.push({ id: 'answers', title: 'Both sites answer', state: 'pass', detail: `${active.name}: ${activeHealth.serverName}; ${standby.name}: ${standbyHealth.serverName}` });

  // Same database: a marker document written through the active site is read through the standby.
  const marker = `DR drill marker ${randomBytes(6).toString('hex')}`;
  try {
    await active.call('POST', '/workflows', { name: marker, type: 'automation', tasks: { workflow_start: { name: 'workflow_start' }, workflow_end: { name: 'workflow_end' } }, transitions: { workflow_start: { workflow_end: { type: 'standard', state: 'success' } }, workflow_end: {} } });
    let seen = true;
    try {
      await standby.call('GET', `/workflows/${encodeURIComponent(marker)}`);
    } catch (error) {
      if (!(error instanceof SiteError && error.code === 'not_found')) throw error;
      seen = false;
    }
    await active.call('DELETE', `/workflows/${encodeURIComponent(marker)}`);
    items.push(
      seen
        ? { id: 'same-database', title: 'Both sites see the same database', state: 'pass', detail: `a marker written through ${active.name} was read through ${standby.name}` }
        : { id: 'same-database', title: 'Both sites see the same database', state: 'fail', detail: `a marker written through ${active.name} is not seen by ${standby.name}`, fix: "Point both profiles at the same database (the same mongoProps.url and db, or the same embeddedProps.file)" },
    );
  } catch (error) {
    items.push({ id: 'same-database', title: 'Both sites see the same database', state: 'fail', detail: errorMessage(error), fix: 'Make the workflows API of both sites usable' });
  }

  const [activeWorkers, standbyWorkers] = await Promise.all([active.call<WorkersStatus>('GET', '/workflow_engine/workers/status'), standby.call<WorkersStatus>('GET', '/workflow_engine/workers/status')]);
  const sw = standbyWorkers.taskWorker;
  items.push(
    !sw.startupValue && !sw.running
      ? { id: 'standby-worker', title: 'Standby: processTasksOnStart false and task worker stopped', state: 'pass', detail: 'processTasksOnStart is false; the task worker is stopped' }
      : {
          id: 'standby-worker',
          title: 'Standby: processTasksOnStart false and task worker stopped',
          state: 'fail',
          detail: `processTasksOnStart is ${sw.startupValue}; the task worker is ${sw.running ? 'running' : 'stopped'}`,
          fix: [sw.startupValue ? `set "processTasksOnStart": false in the ${standby.name} profile (properties.json) and restart it` : '', sw.running ? `stop its task worker (POST /workflow_engine/taskWorker/deactivate on ${standby.name})` : ''].filter(Boolean).join('; '),
        },
  );

  for (const app of FAILOVER_APPLICATIONS) {
    try {
      const answer = await standby.call<{ results?: { state: string }[]; state?: string }>('GET', `/health/applications/${app}`);
      const item = { state: answer.results?.[0]?.state ?? answer.state ?? 'unknown' };
      items.push(
        item.state === 'STOPPED'
          ? { id: `standby-${app}`, title: `Standby: ${app} stopped`, state: 'pass', detail: `${app} is STOPPED` }
          : { id: `standby-${app}`, title: `Standby: ${app} stopped`, state: 'fail', detail: `${app} is ${item.state}`, fix: `stop ${app} on ${standby.name} (PUT /applications/${app}/stop)` },
      );
    } catch (error) {
      if (!(error instanceof SiteError && error.code === 'not_found')) throw error;
      items.push({ id: `standby-${app}`, title: `Standby: ${app} stopped`, state: 'skipped', detail: `${standby.name} does not report an application ${app}` });
    }
  }

  const working = activeWorkers.servers.filter((s) => s.alive && s.taskWorker);
  const [onlyWorker] = working;
  items.push(
    working.length === 1 && onlyWorker?.serverId === activeHealth.serverId
      ? { id: 'one-worker', title: 'Only the active site works tasks (heartbeats)', state: 'pass', detail: `${onlyWorker.serverName} alone` }
      : {
          id: 'one-worker',
          title: 'Only the active site works tasks (heartbeats)',
          state: 'fail',
          detail: working.length ? `working tasks: ${working.map((s) => s.serverName).join(', ')}` : 'no server works tasks',
          fix: working.length ? `stop the task worker of every server but ${activeHealth.serverName}` : `start the task worker of ${active.name}`,
        },
  );

  items.push(...(await workflowsReady(standby, workflows)));

  const clocks: string[] = [];
  let worst = 0;
  for (const site of [active, standby]) {
    const before = Date.now();
    const response = await fetch(site.ref.url + '/health/status', { headers: { authorization: `Bearer ${site.ref.token}` } });
    await response.arrayBuffer();
    const after = Date.now();
    const theirs = Date.parse(response.headers.get('date') ?? '');
    // The Date header has one-second precision: the skew is what exceeds it and the round trip.
    const skew = Number.isNaN(theirs) ? 0 : Math.max(0, Math.abs(theirs + 500 - (before + after) / 2) - 500 - (after - before) / 2);
    worst = Math.max(worst, skew);
    clocks.push(`${site.name} ${Math.round(skew)} ms`);
  }
  items.push(
    worst <= CLOCK_BOUND_MS
      ? { id: 'clocks', title: `Clocks within ${CLOCK_BOUND_MS} ms`, state: 'pass', detail: clocks.join('; ') }
      : { id: 'clocks', title: `Clocks within ${CLOCK_BOUND_MS} ms`, state: 'fail', detail: clocks.join('; '), fix: 'synchronise both machines with NTP' },
  );

  for (const [site, { profile }] of [[active, activeHealth], [standby, standbyHealth]] as const) {
    const entry = await site.call<{ metadata: { legacyActivate: unknown[] } }>('GET', `/profiles/${encodeURIComponent(profile)}`);
    items.push(
      entry.metadata.legacyActivate.length === 0
        ? { id: `legacy-activate:${site.name}`, title: `${site.name}: legacy activate absent`, state: 'pass', detail: 'no activate setting' }
        : { id: `legacy-activate:${site.name}`, title: `${site.name}: legacy activate absent`, state: 'fail', detail: 'the profile carries the removed activate setting', fix: `migrate it to processTasksOnStart (POST /profiles/${profile}/migrate-activate)` },
    );
  }
  items.push(await backupReadiness([active, standby]));
  return items;
}
