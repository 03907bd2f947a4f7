// What needs an operator, computed on the server in one call: each item is read on
// its own, so a store that does not answer turns the job items "unknown" (with the
// reason) while adapters and applications still report.
import type { Handler } from '../dispatch/dispatch';
import { errorMessage } from '../errors';
import type { Attention, AttentionEntry, AttentionItem, AttentionLevel } from '../contract/attention';
import type { DeprecatedCall, HealthItem } from '../contract/health';
import type { CollectionIndexStatus } from '../contract/indexes';
import type { Collection, ReadOnlyCollection } from '../store/port';
import type { WorkflowSummary } from '../contract/workflows';
import type { StoreSafety } from '../store/port';

export interface StoreCondition {
  location: string;
  safety?: StoreSafety;
  /** The newest backup of the embedded store, the one to restore. */
  newestBackup?: { id: string; takenAt: number };
}

const STORE_SUMMARY: Record<StoreSafety['state'], string> = {
  ok: 'Store takes writes',
  'read-only': 'Store read-only: its check at open failed',
  'write-failing': 'Store writes fail',
  stopped: 'Store stopped: its file was not opened',
};

export interface AttentionDeps {
  jobs: () => ReadOnlyCollection;
  tasks: () => ReadOnlyCollection;
  adapters: () => Promise<HealthItem[]>;
  applications: () => HealthItem[];
  indexes: () => Promise<CollectionIndexStatus[]>;
  deprecatedCalls: () => DeprecatedCall[];
  /** The active profile's role (processTasksOnStart) and whether this server's worker runs now. */
  worker: () => { profile: string; processTasksOnStart: boolean; running: boolean };
  /** The DR drill history (`drill_reports`); absent where drills are not kept. */
  drills?: () => Collection;
  /** Whether the store takes writes (a file refused at open, read-only after a failed check, failing writes) and its newest backup. */
  store?: () => Promise<StoreCondition>;
  /** The workflows with what each needs (its child workflows' needs included); absent where not listed. */
  workflows?: () => Promise<Pick<WorkflowSummary, 'name' | 'needs'>[]>;
}

const RANK: Record<AttentionLevel, number> = { ok: 0, unknown: 1, warn: 2, bad: 3 };
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
const jobsLink = (params: Record<string, string>) => `#/jobs?${new URLSearchParams(params).toString()}`;

type Partial = Omit<AttentionItem, 'id' | 'title' | 'link'> & { link?: string };

async function item(id: AttentionItem['id'], title: string, link: string, read: () => Promise<Partial> | Partial): Promise<AttentionItem> {
  try {
    const part = await read();
    return { id, title, ...part, link: part.link ?? link };
  } catch (error) {
    // Reported on the card and in the status bar as "unknown", naming the cause.
    return { id, title, link, level: 'unknown', count: 0, summary: `${title}: unknown`, entries: [], error: errorMessage(error) };
  }
}

export function createAttentionService(deps: AttentionDeps) {
  async function jobsInError(): Promise<Partial> {
    const errored = await deps.jobs().find({ status: 'error' }, { projection: { name: 1 } });
    const byWorkflow = new Map<string, number>();
    for (const job of errored) byWorkflow.set(String(job.name), (byWorkflow.get(String(job.name)) ?? 0) + 1);
    const entries: AttentionEntry[] = [...byWorkflow]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([name, count]) => ({ label: name, count, link: jobsLink({ status: 'error', workflow: name }) }));
    const count = errored.length;
    return { level: count ? 'bad' : 'ok', count, summary: count ? `${plural(count, 'job')} in error` : 'No job in error', entries };
  }

  async function operatorTasks(): Promise<Partial> {
    const waiting = await deps.tasks().find({ status: 'waiting', childJob: { $exists: false } }, { projection: { jobId: 1, queuedAt: 1 } });
    const jobIds = [...new Set(waiting.map((t) => String(t.jobId)))];
    const live = new Set(
      (await deps.jobs().find({ _id: { $in: jobIds }, status: { $in: ['running', 'paused'] } }, { projection: { status: 1 } })).map((j) => String(j._id)),
    );
    const open = waiting.filter((t) => live.has(String(t.jobId)));
    const oldest = open.reduce((min, t) => Math.min(min, Number(t.queuedAt)), Infinity);
    const count = open.length;
    const entries: AttentionEntry[] = count ? [{ label: 'the oldest has waited', since: oldest, link: '#/worklist' }] : [];
    return { level: count ? 'warn' : 'ok', count, summary: count ? `${plural(count, 'task')} waiting for an operator` : 'No task waiting for an operator', entries };
  }

  async function adapters(): Promise<Partial> {
    const down = (await deps.adapters()).filter((a) => a.state !== 'RUNNING' || a.connection?.state !== 'ONLINE');
    const entries = down.map((a) => ({
      label: a.id,
      // The item's own detail says why (a crash loop) or whether a stop persists across restarts, when the API gives it.
      detail: (a.state !== 'RUNNING' ? a.state : `RUNNING, ${a.connection?.state ?? 'connection unknown'}`) + (a.detail ? `: ${a.detail}` : ''),
      link: '#/health/adapters',
    }));
    const count = down.length;
    const dead = down.some((a) => a.state === 'DEAD');
    return { level: count ? (dead ? 'bad' : 'warn') : 'ok', count, summary: count ? `${plural(count, 'adapter')} not ONLINE` : 'Every adapter ONLINE', entries };
  }

  function applications(): Partial {
    const down = deps.applications().filter((a) => a.state !== 'RUNNING');
    const count = down.length;
    const entries = down.map((a) => ({ label: a.id, detail: a.state + (a.detail ? `: ${a.detail}` : ''), link: '#/health/applications' }));
    return { level: count ? 'bad' : 'ok', count, summary: count ? `${plural(count, 'application')} not RUNNING` : 'Every application RUNNING', entries };
  }

  async function indexes(profile: string): Promise<Partial> {
    const link = `#/profiles/${encodeURIComponent(profile)}/indexing`;
    const notIndexed = (await deps.indexes()).filter((c) => !c.indexed);
    const count = notIndexed.length;
    const entries = notIndexed.map((c) => ({
      label: c.collection,
      detail: c.running ? 'building' : `${plural(c.missing.length, 'index', 'indexes')} missing${c.misnamed.length ? `, ${c.misnamed.length} misnamed` : ''}`,
      link,
    }));
    return { level: count ? 'warn' : 'ok', count, summary: count ? `${plural(count, 'collection')} not indexed` : 'Every collection indexed', entries, link };
  }

  function deprecatedCallers(): Partial {
    const calls = deps.deprecatedCalls().filter((c) => c.state !== 'active');
    const callers = [...new Set(calls.map((c) => c.caller))];
    const count = callers.length;
    const removed = calls.some((c) => c.state === 'removed');
    const entries = callers.map((caller) => {
      const own = calls.filter((c) => c.caller === caller);
      return { label: caller, count: own.reduce((n, c) => n + c.count, 0), detail: own.map((c) => `${c.method} ${c.path}`).join(', '), link: '#/health/deprecated' };
    });
    return {
      level: count ? (removed ? 'bad' : 'warn') : 'ok',
      count,
      summary: count ? `${plural(count, 'caller')} of deprecated APIs` : 'No caller of deprecated APIs',
      entries,
    };
  }

  function workerRole(): Partial {
    const w = deps.worker();
    const link = `#/profiles/${encodeURIComponent(w.profile)}/configure`;
    const role = w.processTasksOnStart ? 'primary' : 'standby';
    if (w.processTasksOnStart && !w.running) {
      return { level: 'bad', count: 1, summary: 'Primary not working tasks', entries: [{ label: `profile ${w.profile} works tasks at start, but the task worker is stopped`, link }], link };
    }
    if (!w.processTasksOnStart && w.running) {
      return { level: 'bad', count: 1, summary: 'Standby working tasks', entries: [{ label: `profile ${w.profile} is a standby (processTasksOnStart false), but its task worker runs`, link }], link };
    }
    return { level: 'ok', count: 0, summary: `Task worker as the ${role} role expects (${w.running ? 'running' : 'stopped'})`, entries: [], link };
  }

  /** The last DR drill: a failed or missed-target drill needs the operator; none yet is only said. */
  async function lastDrill(): Promise<Partial> {
    const [last] = deps.drills ? await deps.drills().find({}, { sort: { startedAt: -1 }, limit: 1 }) : [];
    if (!last) return { level: 'ok', count: 0, summary: 'No DR drill run yet', entries: [] };
    const id = String(last._id);
    const when = Number(last.startedAt);
    const link = `#/drills/${encodeURIComponent(id)}`;
    const entry = { label: `drill ${id}`, since: when, link };
    if (last.status === 'running') return { level: 'ok', count: 0, summary: 'A DR drill is running', entries: [entry], link };
    if (last.passed === true) {
      const rto = typeof last.rtoMs === 'number' ? `, RTO ${(last.rtoMs / 1000).toFixed(1)} s` : '';
      return { level: 'ok', count: 0, summary: `Last DR drill passed${rto}`, entries: [entry], link };
    }
    const why = typeof last.error === 'string' ? last.error : 'a target was missed';
    return { level: 'warn', count: 1, summary: 'Last DR drill did not pass', entries: [{ ...entry, detail: why }], link };
  }

  /** Workflows that cannot run: a job of one would be refused until the parts it needs are installed. */
  async function blockedWorkflows(): Promise<Partial> {
    const all = deps.workflows ? await deps.workflows() : [];
    const blocked = all.filter((w) => w.needs.length > 0);
    const count = blocked.length;
    const entries = blocked.map((w) => ({
      label: w.name,
      detail: `needs ${w.needs.map((n) => n.name).join(', ')}`,
      link: `#/workflows/${encodeURIComponent(w.name)}`,
    }));
    const summary = count ? `${plural(count, 'workflow')} of ${all.length.toLocaleString('en-US')} cannot run` : 'Every workflow can run';
    return { level: count ? 'warn' : 'ok', count, summary, entries };
  }

  /** The store: red while it takes no writes, naming why, with the newest backup to restore. */
  async function storeSafety(): Promise<Partial> {
    const condition = deps.store ? await deps.store() : undefined;
    const safety = condition?.safety;
    if (!condition || !safety || safety.writable) return { level: 'ok', count: 0, summary: STORE_SUMMARY.ok, entries: [] };
    const entries: AttentionEntry[] = [{ label: condition.location, detail: safety.reason, since: safety.since, link: '#/' }];
    const newest = condition.newestBackup;
    if (newest) entries.push({ label: `newest backup ${newest.id}`, detail: `restore it: POST /store/backups/${newest.id}/restore`, since: newest.takenAt, link: '#/' });
    else if (safety.state !== 'write-failing') entries.push({ label: 'no backup of this store', detail: 'restore the file from your own copy', link: '#/' });
    return { level: 'bad', count: 1, summary: STORE_SUMMARY[safety.state], entries };
  }

  return {
    async summary(now = Date.now()): Promise<Attention> {
      const profile = deps.worker().profile;
      const items = await Promise.all([
        item('jobs-error', 'Jobs in error', jobsLink({ status: 'error' }), jobsInError),
        item('operator-tasks', 'Tasks waiting for an operator', '#/worklist', operatorTasks),
        item('adapters', 'Adapters not ONLINE', '#/health/adapters', adapters),
        item('applications', 'Applications not RUNNING', '#/health/applications', applications),
        item('indexes', 'Collections not indexed', `#/profiles/${encodeURIComponent(profile)}/indexing`, () => indexes(profile)),
        item('deprecated-callers', 'Deprecated API callers', '#/health/deprecated', deprecatedCallers),
        item('worker-role', 'Task worker and role', `#/profiles/${encodeURIComponent(profile)}/configure`, workerRole),
        item('last-drill', 'Last DR drill', '#/drills', lastDrill),
        item('workflows-blocked', 'Workflows that cannot run', '#/workflows?ready=no', blockedWorkflows),
        item('store', 'Store', '#/', storeSafety),
      ]);
      const level = items.reduce<AttentionLevel>((worst, i) => (RANK[i.level] > RANK[worst] ? i.level : worst), 'ok');
      return { level, items, checkedAt: now };
    },
  };
}

export type AttentionService = ReturnType<typeof createAttentionService>;

export function attentionHandlers(service: AttentionService): { 'console.attention': Handler<'console.attention'> } {
  return { 'console.attention': () => service.summary() };
}
