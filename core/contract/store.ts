// Operations of the store: where the active profile keeps its data and whether it
// answers, and a connection test for any profile. Never carries a password.
import { z } from 'zod';
import { SafeId as ProfileId } from './ids';
import { defineOperations } from './operation';

export const StoreKind = z.enum(['embedded', 'mongodb']);

export const StoreStatus = z.object({
  kind: StoreKind,
  /** "embedded store in /data/profiles/x/db/console.sqlite" or "MongoDB at db1.example:27017 (db pronghorn)". */
  location: z.string(),
  connected: z.boolean(),
  /** Why it is not connected, naming what failed and where. */
  error: z.string().optional(),
  /** The embedded file's PRAGMA integrity_check: ok, or the problems SQLite found (with when it ran, ms). */
  integrity: z.object({ ok: z.boolean(), problems: z.array(z.string()), checkedAt: z.number() }).optional(),
});
export type StoreStatus = z.infer<typeof StoreStatus>;

export const ConnectionTest = z.object({
  ok: z.boolean(),
  kind: StoreKind,
  location: z.string(),
  /** Time the ping took, when it answered. */
  latencyMs: z.number().optional(),
  error: z.string().optional(),
});
export type ConnectionTest = z.infer<typeof ConnectionTest>;

export const storeOperations = defineOperations({
  'store.status': {
    method: 'GET',
    path: '/store/status',
    summary: "The active profile's store: embedded or MongoDB, where, and whether it answers",
    output: StoreStatus,
  },
  'store.testConnection': {
    method: 'POST',
    path: '/profiles/:id/test-connection',
    summary: "Connects to a profile's store as saved and pings it; answers ok or the error (never the password)",
    params: z.object({ id: ProfileId }),
    output: ConnectionTest,
  },
});
