// Operations of the store: where the active profile keeps its data and whether it
// answers, and a connection test for any profile. Never carries a password.
import { z } from 'zod';
import { SafeId as ProfileId } from './ids';
import { defineOperations } from './operation';

export const StoreKind = z.enum(['embedded', 'mongodb']);

/** Whether the store can be written, and why not: a failed check at open, failing writes, or a file the console refused to open. */
export const StoreSafety = z.object({
  state: z.enum(['ok', 'read-only', 'write-failing', 'stopped']),
  writable: z.boolean(),
  reason: z.string().optional(),
  since: z.number().optional(),
});

/** One backup of the embedded store (`<profile>/db/backups/<id>.sqlite`). */
export const StoreBackup = z.object({
  id: z.string(),
  file: z.string(),
  /** When it was taken, ms since the epoch. */
  takenAt: z.number(),
  bytes: z.number(),
  /**
   * How it stands against its manifest (its checksum, size, page count, counts and store id): `ok`,
   * `bad` (the failed check in `reason`: not restorable), or `unverified` (taken before backups
   * carried a manifest: restorable only with { "unverified": true }).
   */
  check: z.object({ state: z.enum(['ok', 'bad', 'unverified']), reason: z.string().optional() }).optional(),
  /** The store it is a copy of, and its documents per collection, as its manifest says. */
  storeId: z.string().optional(),
  counts: z.record(z.string(), z.number()).optional(),
});
export type StoreBackup = z.infer<typeof StoreBackup>;

/** `embeddedProps.backups`: every how many minutes a backup is taken, and how many are kept. */
export const BackupSchedule = z.object({ everyMinutes: z.number(), keep: z.number() });

export const BackupId = z.string().regex(/^backup-\d{8}T\d{9}Z-[0-9a-f]{6}$/, 'a backup id: backup-<time>-<hex>, as GET /store/backups lists them');

/** A file a restore replaced, kept beside the store's file (`<file>.replaced-<time>`) under the backups' retention. */
export const ReplacedFile = z.object({
  file: z.string(),
  /** When it was replaced, ms since the epoch. */
  replacedAt: z.number(),
  bytes: z.number(),
});
export type ReplacedFile = z.infer<typeof ReplacedFile>;

export const RestoreDone = z.object({ restored: StoreBackup, replacedFile: z.string(), file: z.string() });
export type RestoreDone = z.infer<typeof RestoreDone>;

/** What a restore would discard: per collection, the documents the file holds now that the backup does not. */
export const RestorePreview = z.object({
  preview: z.literal(true),
  backup: StoreBackup,
  file: z.string(),
  discards: z.record(z.string(), z.number()),
  /** The jobs it would discard (the first 100), newest first. */
  jobs: z.array(z.object({ _id: z.string(), name: z.string().optional(), status: z.string().optional() })),
  /** Why the file cannot be compared (emptied, not a database, damaged): the restore replaces it whole, kept beside it. */
  unreadable: z.string().optional(),
});
export type RestorePreview = z.infer<typeof RestorePreview>;

/** The store's identity inside the embedded file (`_identity`, `_high_water`). */
export const StoreIdentity = z.object({
  id: z.string(),
  createdAt: z.string(),
  schemaVersion: z.number(),
  /** Raised with the writes: an older copy of the file has a lower one. */
  generation: z.number(),
  /** Per collection, the most documents the console has seen it hold (less its own deletes). */
  highWater: z.record(z.string(), z.number()),
});

export const StoreStatus = z.object({
  kind: StoreKind,
  /** "embedded store in /data/profiles/x/db/console.sqlite" or "MongoDB at db1.example:27017 (db pronghorn)". */
  location: z.string(),
  connected: z.boolean(),
  /** Why it is not connected, naming what failed and where. */
  error: z.string().optional(),
  /** The embedded file's PRAGMA integrity_check: ok, or the problems SQLite found (with when it ran, ms). */
  integrity: z.object({ ok: z.boolean(), problems: z.array(z.string()), checkedAt: z.number() }).optional(),
  /** Whether writes are taken, and why not (the embedded store). */
  safety: StoreSafety.optional(),
  /** The embedded store's backups: the newest (restore it when the store stopped) and the schedule. */
  backups: z.object({ newest: StoreBackup.optional(), count: z.number(), schedule: BackupSchedule }).optional(),
  /** The embedded store's identity, kept inside its file: the same id wherever the file is copied or moved. */
  identity: StoreIdentity.optional(),
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
  'store.backups.list': {
    method: 'GET',
    path: '/store/backups',
    summary: "The embedded store's backups, newest first, and the schedule (409 on MongoDB: mongodump makes its backups)",
    output: z.object({ file: z.string(), storeId: z.string().optional(), backups: z.array(StoreBackup), replaced: z.array(ReplacedFile), schedule: BackupSchedule }),
  },
  'store.backups.take': {
    method: 'POST',
    path: '/store/backups',
    summary: 'Takes a consistent online copy of the embedded database file (SQLite backup API); 409 on MongoDB (use mongodump)',
    output: StoreBackup,
  },
  'store.backups.restore': {
    method: 'POST',
    path: '/store/backups/:id/restore',
    summary:
      'Restores a backup: checked against its manifest first, the task worker stops, the file is swapped atomically (the replaced file kept beside it), the store reopened; with { "preview": true } answers what it would discard and changes nothing; 409 naming the failed check for a bad backup, for an unverified one (no manifest) unless { "unverified": true }, while another restore runs, while another console has the file open, or on MongoDB (use mongorestore)',
    params: z.object({ id: BackupId }),
    body: z
      .object({
        preview: z.boolean({ error: 'preview must be true or false' }).optional(),
        unverified: z.boolean({ error: 'unverified must be true or false' }).optional(),
      })
      .default({}),
    output: z.union([RestoreDone, RestorePreview]),
  },
  'store.testConnection': {
    method: 'POST',
    path: '/profiles/:id/test-connection',
    summary: "Connects to a profile's store as saved and pings it; answers ok or the error (never the password)",
    params: z.object({ id: ProfileId }),
    output: ConnectionTest,
  },
});
