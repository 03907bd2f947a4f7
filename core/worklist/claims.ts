// Claims of manual tasks as the work queue reads them (collection `task_claims`, one document
// per task record id). Claiming, releasing and taking over are the engine's operator actions
// (core/engine/jobs/claims.ts decides them, its executor writes them with the job's history).
import type { ReadOnlyCollection } from '../store/port';

export interface Claim {
  _id: string;
  assignee: string;
  claimedAt: number;
}

/** What the work queue asks of the engine: each answers the claim as it is after it, or refuses (404, 409 naming the claimant). */
export interface ClaimActions {
  claim(recordId: string, operator: string): Promise<Claim>;
  release(recordId: string, operator: string): Promise<void>;
  takeOver(recordId: string, operator: string, assignee?: string): Promise<Claim>;
}

const asClaim = (doc: Record<string, unknown>): Claim => ({ _id: String(doc._id), assignee: String(doc.assignee), claimedAt: Number(doc.claimedAt) });

/** The claims of these task records, by record id. */
export async function claimsOf(claims: ReadOnlyCollection, ids: string[]): Promise<Map<string, Claim>> {
  if (ids.length === 0) return new Map();
  const docs = await claims.find({ _id: { $in: ids } });
  return new Map(docs.map((doc) => [String(doc._id), asClaim(doc)]));
}
