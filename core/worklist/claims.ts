// Claims of manual tasks (collection `task_claims`, one document per task record id):
// an operator takes a waiting task so two operators do not both act on it, and releases
// it to hand it back. A claim outlives nothing: once the task stops waiting it is ignored.
import { ConsoleError } from '../errors';
import type { Collection } from '../store/port';

export const TASK_CLAIMS = 'task_claims';

export interface Claim {
  _id: string;
  assignee: string;
  claimedAt: number;
}

export interface ClaimsDeps {
  tasks: () => Collection;
  claims: () => Collection;
  operator: () => string;
}

const asClaim = (doc: Record<string, unknown>): Claim => ({ _id: String(doc._id), assignee: String(doc.assignee), claimedAt: Number(doc.claimedAt) });

/** The claims of these task records, by record id. */
export async function claimsOf(claims: Collection, ids: string[]): Promise<Map<string, Claim>> {
  if (ids.length === 0) return new Map();
  const docs = await claims.find({ _id: { $in: ids } });
  return new Map(docs.map((doc) => [String(doc._id), asClaim(doc)]));
}

async function requireWaiting(deps: ClaimsDeps, id: string): Promise<void> {
  const task = await deps.tasks().findOne({ _id: id, status: 'waiting' });
  if (!task || task.childJob !== undefined) throw new ConsoleError('not_found', `no manual task "${id}" is waiting for an operator`);
}

export function createClaims(deps: ClaimsDeps) {
  return {
    async claim(id: string, now = Date.now()): Promise<Claim> {
      await requireWaiting(deps, id);
      const operator = deps.operator();
      const held = await deps.claims().findOne({ _id: id });
      if (held && held.assignee !== operator) throw new ConsoleError('conflict', `task "${id}" is claimed by ${String(held.assignee)}: they release it first`, { assignee: held.assignee });
      if (held) return asClaim(held);
      const claim: Claim = { _id: id, assignee: operator, claimedAt: now };
      await deps.claims().insertOne({ ...claim });
      return claim;
    },
    async release(id: string): Promise<void> {
      await requireWaiting(deps, id);
      await deps.claims().deleteMany({ _id: id });
    },
  };
}
