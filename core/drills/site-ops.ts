// What a drill does to a site, always over its API: prepare the drill's ledger adapter and
// workflow, start or stop the failover applications, read its task worker, describe it, and
// write processTasksOnStart into its active profile.
import { FAILOVER_APPLICATIONS } from './readiness';
import { drillWorkflow, DRILL_ADAPTER, type Ledger } from './ledger';
import { SiteError, type Site } from './site';
import type { DrillSiteInfo } from './types';
import { worksTasksOnStart } from '../profiles/runtime-config';

/** The ledger is called through an instance of the shipped http-request adapter, allowed the ledger's URL only. */
export function ledgerAdapter(ledgerUrl: string) {
  return {
    id: DRILL_ADAPTER,
    type: 'HttpRequest',
    properties: { allowedBaseUrls: [ledgerUrl], timeoutMs: 10_000, maxRedirects: 0, headers: {}, stub: false, healthcheck: { type: 'startup', frequency: 60_000 } },
    groups: [],
    brokers: [],
  };
}

/** The drill's adapter instance on a site (created, or pointed at this drill's ledger) and its workflow. */
export async function prepareSite(site: Site, ledger: Ledger, tasks: number) {
  const config = ledgerAdapter(ledger.url);
  try {
    await site.call('POST', '/adapters', { properties: config });
  } catch (error) {
    if (!(error instanceof SiteError && error.code === 'conflict')) throw error;
    // An instance left by an earlier drill (or created through the other site): this drill's ledger URL.
    await site.call('PUT', `/adapters/${DRILL_ADAPTER}/properties`, { properties: config });
  }
  await site.call('POST', '/workflows?overwrite=true', drillWorkflow(tasks));
}

/** Starts or stops the failover applications where the site has them; says what it did. */
export async function applications(site: Site, action: 'start' | 'stop') {
  const done: string[] = [];
  for (const app of FAILOVER_APPLICATIONS) {
    try {
      await site.call('PUT', `/applications/${app}/${action}`);
      done.push(`${app} ${action === 'start' ? 'started' : 'stopped'}`);
    } catch (error) {
      if (!(error instanceof SiteError && error.code === 'not_found')) throw error;
      done.push(`${app}: not on this site`);
    }
  }
  return done.join(', ');
}

export async function workerState(site: Site) {
  const status = await site.call<{ taskWorker: { running: boolean; startupValue: boolean } }>('GET', '/workflow_engine/workers/status');
  return { running: status.taskWorker.running, startupValue: status.taskWorker.startupValue };
}

export async function describeSite(site: Site): Promise<DrillSiteInfo & { profileId: string }> {
  const health = await site.call<{ serverId: string; serverName: string; profile: string; store: string }>('GET', '/health/status');
  // The site masks its secrets itself (profiles.get answers ******** for each).
  const entry = await site.call<{ profile: Record<string, unknown> }>('GET', `/profiles/${encodeURIComponent(health.profile)}`);
  return { name: site.name, url: site.ref.url, serverId: health.serverId, serverName: health.serverName, store: health.store, properties: entry.profile, profileId: health.profile };
}

/**
 * Writes processTasksOnStart into the site's profile through its profiles API (masked secrets sent
 * back keep their stored values); answers the value it had.
 */
export async function setProcessTasksOnStart(site: Site, profileId: string, value: boolean): Promise<boolean> {
  const path = `/profiles/${encodeURIComponent(profileId)}`;
  const { profile } = await site.call<{ profile: Record<string, unknown> }>('GET', path);
  const before = worksTasksOnStart(profile.processTasksOnStart);
  if (before !== value) await site.call('PUT', path, { ...profile, processTasksOnStart: value });
  return before;
}
