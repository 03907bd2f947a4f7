// Profiles: the properties.json model (one per server: primary, DR standby, lab) and the
// profile operations, in the service's shapes. Browser-safe (zod only), so the renderer
// validates a form with the same schema the core saves with. Fields the console does not
// know (vaultProps, redisProps, ...) are kept as they are: every object is loose.
import { z } from 'zod';
import { SafeId } from './ids';
import { defineOperations } from './operation';

/** What the API shows instead of a secret's value. Sending it back keeps the stored value. */
export const SECRET_MASK = '********';

/** A profile id names its folder, `profiles/<id>/`: the safe id schema (./ids). */
export const ProfileId = SafeId;

const str = () => z.string({ error: 'must be a string' });
const bool = () => z.boolean({ error: 'must be true or false' });
const obj = <S extends z.ZodRawShape>(shape: S) => z.looseObject(shape, { error: 'must be an object' });

export const MongoUrl = str().refine((url) => /^mongodb(\+srv)?:\/\/[^/?#\s]+/.test(url), {
  message: 'must be a mongodb:// or mongodb+srv:// URL',
});

export const ProfileProperties = obj({
  id: ProfileId,
  serverName: str().optional(),
  processTasksOnStart: bool().optional(),
  mongoProps: obj({
    url: MongoUrl.optional(),
    db: str().optional(),
    credentials: obj({
      user: str().optional(),
      passwd: str().optional(),
      dbAuth: bool().optional(),
    }).optional(),
    ssl: obj({
      enabled: bool().optional(),
      acceptInvalidCerts: bool().optional(),
      sslCA: str().optional(),
    }).optional(),
  }).optional(),
  pathProps: obj({
    description: str().optional(),
    sdk_dir: str().optional(),
    encrypted: bool().optional(),
  }).optional(),
  /** The console's own: the embedded store's SQLite file (absolute, or relative to the profile's db folder). */
  embeddedProps: obj({
    file: str().optional(),
    /** Scheduled backups of the embedded file: every `everyMinutes` (60 unless set), the newest `keep` kept (24). */
    backups: obj({ everyMinutes: z.number().int().min(1).optional(), keep: z.number().int().min(1).optional() }).optional(),
  }).optional(),
  /**
   * The console's own: whether jobs may call simulated adapter instances (POST /adapters/simulate).
   * Unset: off for a profile that works tasks at startup against MongoDB (a shared, real store), on otherwise.
   */
  simulationProps: obj({ allowJobs: bool().optional() }).optional(),
  /**
   * The service's logger settings. Each value is checked when the profile is read (core/profiles/
   * runtime-config.ts): one that cannot be used falls back to its default with a warning, so none
   * refuses the file.
   */
  loggerProps: obj({
    log_level: z.unknown().optional(),
    console_level: z.unknown().optional(),
    log_filename: z.unknown().optional(),
    log_max_file_size: z.unknown().optional(),
    log_max_files: z.unknown().optional(),
    syslog: z.unknown().optional(),
  }).nullish(),
});
/** A profile's properties.json, the one model of it in the console (core and UI); unknown fields are kept. */
export type ProfileProperties = z.infer<typeof ProfileProperties>;

export interface FieldIssue {
  /** Dotted path inside properties.json, e.g. `mongoProps.url`. */
  path: string;
  message: string;
}

/** Validates a properties.json object; each issue names its field path. */
export function validateProperties(
  json: unknown,
): { ok: true; value: ProfileProperties } | { ok: false; issues: FieldIssue[] } {
  const result = ProfileProperties.safeParse(json);
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    issues: result.error.issues.map((issue) => ({
      path: issue.path.length ? issue.path.map(String).join('.') : '(file)',
      message: issue.path.length === 0 && issue.code === 'invalid_type' ? 'must be a JSON object' : issue.message,
    })),
  };
}

/** A new profile: the embedded store, working tasks at startup. */
export function profileTemplate(id: string): ProfileProperties {
  return {
    id,
    serverName: '',
    processTasksOnStart: true,
    mongoProps: {
      db: 'automation',
      credentials: { user: '', passwd: '', dbAuth: false },
      ssl: { enabled: false, acceptInvalidCerts: false, sslCA: '' },
    },
    pathProps: { description: 'File Path Variables', sdk_dir: '', encrypted: false },
  };
}

export const LegacyActivatePlace = z.enum(['task-worker', 'workflow-engine', 'properties']);

export const LegacyActivateFinding = z.object({
  place: LegacyActivatePlace,
  /** The releases that kept the setting there, e.g. `2019.2 and 2019.3`. */
  releases: z.string(),
  /** Where in the given JSON, e.g. `$.properties.activate` or `$[2].properties.activate`. */
  jsonPath: z.string(),
  value: z.boolean(),
  message: z.string(),
});
export type LegacyActivateFinding = z.infer<typeof LegacyActivateFinding>;

export const ProfileMetadata = z.object({
  isActive: z.boolean(),
  /** A database password is stored (its value is never returned). */
  passwdSet: z.boolean(),
  /** Where secrets were replaced by the mask, e.g. `mongoProps.credentials.passwd`. */
  maskedFields: z.array(z.string()),
  /** Things the operator must know: a legacy `activate`, an unreadable secret, ... */
  warnings: z.array(z.string()),
  legacyActivate: z.array(LegacyActivateFinding),
});
export type ProfileMetadata = z.infer<typeof ProfileMetadata>;

export const ProfileEntry = z.object({ metadata: ProfileMetadata, profile: z.looseObject({ id: z.string() }) });
export type ProfileEntry = z.infer<typeof ProfileEntry>;

const IdParams = z.object({ id: ProfileId });

export const MigrateActivateBody = z.object({
  /** A service config (or a list of them) from an older release; absent: the profile's own file. */
  config: z.unknown().optional(),
  /** Where the config came from, shown back to the operator (a file name). */
  source: z.string().optional(),
});

export const MigrateActivatePreview = z.object({
  id: z.string(),
  source: z.string(),
  findings: z.array(LegacyActivateFinding),
  /** False when nothing carries `activate`: there is nothing to migrate. */
  applicable: z.boolean(),
  before: z.object({ processTasksOnStart: z.boolean().optional(), activate: z.unknown().optional() }),
  after: z.object({ processTasksOnStart: z.boolean().optional() }),
  changes: z.boolean(),
  message: z.string(),
  /** What the proposed processTasksOnStart does to this server, in words. */
  consequence: z.string().optional(),
});
export type MigrateActivatePreview = z.infer<typeof MigrateActivatePreview>;

export const profilesOperations = defineOperations({
  'profiles.list': {
    method: 'GET',
    path: '/profiles',
    summary: 'All profiles, the active one marked; when none is active (console.json cannot be read), why',
    output: z.object({
      results: z.array(ProfileEntry),
      total: z.number(),
      /** Why no profile is active (console.json cannot be read); the console runs none until one is activated. */
      noActiveProfile: z.string().optional(),
    }),
  },
  'profiles.get': {
    method: 'GET',
    path: '/profiles/:id',
    summary: 'One profile; secrets masked; warnings (legacy activate) in metadata',
    params: IdParams,
    output: ProfileEntry,
  },
  'profiles.create': {
    method: 'POST',
    path: '/profiles',
    summary: 'Create a profile from a properties.json object',
    body: ProfileProperties,
    output: ProfileEntry,
  },
  'profiles.clone': {
    method: 'POST',
    path: '/profiles/:id/clone',
    summary: 'Copy a profile (secrets included) under a new id',
    params: IdParams,
    body: z.object({ id: ProfileId }),
    output: ProfileEntry,
  },
  'profiles.update': {
    method: 'PUT',
    path: '/profiles/:id',
    summary: 'Replace a profile; a masked secret keeps the stored value',
    params: IdParams,
    body: ProfileProperties.partial({ id: true }),
    output: ProfileEntry,
  },
  'profiles.activate': {
    method: 'PUT',
    path: '/profiles/:id/active',
    summary: 'Make this the active profile and reconfigure the running console',
    params: IdParams,
    output: ProfileEntry,
  },
  'profiles.delete': {
    method: 'DELETE',
    path: '/profiles/:id',
    summary: 'Delete a profile that is not the active one',
    params: IdParams,
    output: z.object({ id: z.string(), deleted: z.boolean(), message: z.string() }),
  },
  'profiles.export': {
    method: 'GET',
    path: '/profiles/:id/export',
    summary: "The profile's properties.json, secrets masked",
    params: IdParams,
    output: z.looseObject({ id: z.string() }),
  },
  'profiles.import': {
    method: 'POST',
    path: '/profiles/import',
    summary: 'Create a profile from the content of a properties.json file',
    body: ProfileProperties,
    output: ProfileEntry,
  },
  'profiles.migrateActivatePreview': {
    method: 'POST',
    path: '/profiles/:id/migrate-activate/preview',
    summary: 'Propose processTasksOnStart for a legacy activate setting, without writing',
    params: IdParams,
    body: MigrateActivateBody.optional(),
    output: MigrateActivatePreview,
  },
  'profiles.migrateActivate': {
    method: 'POST',
    path: '/profiles/:id/migrate-activate',
    summary: 'Write processTasksOnStart from a legacy activate setting, keeping a backup',
    params: IdParams,
    body: MigrateActivateBody.optional(),
    output: z.object({ preview: MigrateActivatePreview, entry: ProfileEntry, backup: z.string() }),
  },
});
