// The profile operations (service-compatible shapes): list, get, create, clone, update,
// activate, delete, export, import, and the `activate` migration.
import type { Handlers, CallContext } from '../dispatch/dispatch';
import { ConsoleError } from '../errors';
import type { ProfileEntry, ProfileProperties } from '../contract/profiles';
import { SecretError } from '../secrets/secrets';
import { NoActiveProfile, writeActiveProfileId } from './directory';
import type { ProfileEvents } from './events';
import { applyActivateMigration, previewActivateMigration } from './migrate-activate';
import {
  activeId,
  activeOrProblem,
  InvalidProperties,
  loadAll,
  loadStored,
  loadValid,
  ProfileNotFound,
  profileExists,
  removeProfile,
  withProfilesLock,
  writeProfile,
} from './repository';
import { restoreMasked, sealForStorage } from './secrets';
import { toEntry } from './view';
import type { Vault } from '../secrets/secrets';

type ProfileHandlers = Pick<
  Handlers,
  | 'profiles.list'
  | 'profiles.get'
  | 'profiles.create'
  | 'profiles.clone'
  | 'profiles.update'
  | 'profiles.activate'
  | 'profiles.delete'
  | 'profiles.export'
  | 'profiles.import'
  | 'profiles.migrateActivatePreview'
  | 'profiles.migrateActivate'
>;

/** Turns the profile errors into the API's answers: 404, 400 with field paths, 422 for secrets, 409 while no profile is active. */
async function answer<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ProfileNotFound) throw new ConsoleError('not_found', error.message, { id: error.id });
    if (error instanceof InvalidProperties) throw new ConsoleError('bad_input', error.message, { issues: error.issues });
    if (error instanceof SecretError) throw new ConsoleError('unprocessable', error.message);
    if (error instanceof NoActiveProfile) throw new ConsoleError('conflict', error.message);
    throw error;
  }
}

/** What the profile operations need: the data directory and its vault, which profile runs, and where to announce changes. */
export interface ProfilesDeps {
  dataDir: string;
  /** Seals and opens the profiles' secrets. */
  vault: Vault;
  /** The id of the profile the console runs now; undefined when none is active. */
  runningProfileId(): string | undefined;
  /** Why the console runs no profile (console.json cannot be read, or names a profile that cannot be opened). */
  noActiveProfile(): string | undefined;
  /** Activations and saves are announced here; the host reopens what depends on the profile. */
  profileEvents: ProfileEvents;
}

export type ProfilesService = ProfilesDeps;

export function createProfilesService(deps: ProfilesDeps): ProfilesService {
  return { dataDir: deps.dataDir, vault: deps.vault, runningProfileId: deps.runningProfileId, noActiveProfile: deps.noActiveProfile, profileEvents: deps.profileEvents };
}

export function profilesHandlers(service: ProfilesService): ProfileHandlers {
  const { dataDir, vault, profileEvents } = service;
  const locked = <T>(work: () => Promise<T>) => answer(() => withProfilesLock(dataDir, work));

  const entryOf = async (id: string, extraWarnings: string[] = []): Promise<ProfileEntry> => {
    // While console.json cannot be read no profile is active: the list says why (profiles.list).
    const entry = await toEntry(dataDir, vault, await loadStored(dataDir, id), (await activeOrProblem(dataDir)).id);
    entry.metadata.warnings.push(...extraWarnings);
    return entry;
  };

  /** Creates a new profile from a validated properties object (POST /profiles and import). */
  const createFrom = async (body: ProfileProperties, ctx: CallContext, what: string) =>
    locked(async () => {
      if (await profileExists(dataDir, body.id)) {
        throw new ConsoleError('conflict', `a profile "${body.id}" exists already: ${what} with another id, or edit that profile`, {
          issues: [{ path: 'body.id', message: `"${body.id}" is taken` }],
        });
      }
      const { value, dropped } = restoreMasked(body, undefined);
      await writeProfile(dataDir, vault, await sealForStorage(vault, value));
      ctx.setStatus(201);
      return entryOf(
        value.id,
        dropped.map((p) => `${p}: the file carried a masked secret (${'********'}), which was dropped: set it again`),
      );
    });

  return {
    'profiles.list': () =>
      answer(async () => {
        const active = await activeOrProblem(dataDir);
        const results = await Promise.all((await loadAll(dataDir)).map((stored) => toEntry(dataDir, vault, stored, active.id)));
        const problem = service.noActiveProfile() ?? active.problem;
        return { results, total: results.length, ...(problem ? { noActiveProfile: problem } : {}) };
      }),

    'profiles.get': ({ params }) => answer(() => entryOf(params.id)),

    'profiles.create': ({ body }, ctx) => createFrom(body, ctx, 'create it'),

    'profiles.import': ({ body }, ctx) => createFrom(body, ctx, 'import the file'),

    'profiles.clone': ({ params, body }, ctx) =>
      locked(async () => {
        const source = await loadValid(dataDir, params.id);
        if (await profileExists(dataDir, body.id)) throw new ConsoleError('conflict', `a profile "${body.id}" exists already: pick another id`);
        await writeProfile(dataDir, vault, { ...source, id: body.id });
        ctx.setStatus(201);
        return entryOf(body.id);
      }),

    'profiles.update': ({ params, body }) =>
      locked(async () => {
        if (body.id !== undefined && body.id !== params.id) {
          throw new ConsoleError('bad_input', `id: cannot be changed from "${params.id}" to "${body.id}"; clone the profile to copy it under another id`, {
            issues: [{ path: 'body.id', message: `must stay "${params.id}"` }],
          });
        }
        const stored = await loadStored(dataDir, params.id);
        const { value, dropped } = restoreMasked<ProfileProperties>({ ...body, id: params.id }, stored.json);
        const saved = await sealForStorage(vault, value);
        await writeProfile(dataDir, vault, saved);
        await profileEvents.emit({ type: 'saved', profile: saved });
        return entryOf(params.id, dropped.map((p) => `${p}: no stored secret to keep behind the mask; it was left unset`));
      }),

    'profiles.activate': ({ params }) =>
      locked(async () => {
        const profile = await loadValid(dataDir, params.id);
        // The host opens the profile's store, adapters and engine; when they cannot open, this throws.
        await profileEvents.emit({ type: 'activating', profile });
        await writeActiveProfileId(dataDir, params.id);
        return entryOf(params.id);
      }),

    'profiles.delete': ({ params }) =>
      locked(async () => {
        if (!(await profileExists(dataDir, params.id))) throw new ProfileNotFound(params.id);
        if ((await activeId(dataDir)) === params.id || service.runningProfileId() === params.id) {
          throw new ConsoleError('conflict', `profile "${params.id}" is the active profile: activate another profile before deleting it`);
        }
        const keptAt = await removeProfile(dataDir, params.id);
        return { id: params.id, deleted: true, message: `profile "${params.id}" deleted; its folder was kept at ${keptAt}` };
      }),

    'profiles.export': ({ params }, ctx) =>
      answer(async () => {
        const stored = await loadStored(dataDir, params.id);
        if (stored.problem && !stored.issues) throw new ConsoleError('unprocessable', `profile "${params.id}": ${stored.problem}`);
        const { profile } = await toEntry(dataDir, vault, stored, undefined);
        ctx.setHeader('Content-Disposition', `attachment; filename="${params.id}.properties.json"`);
        return profile;
      }),

    'profiles.migrateActivatePreview': ({ params, body }) =>
      answer(async () => previewActivateMigration(await loadValid(dataDir, params.id), body ?? {})),

    'profiles.migrateActivate': ({ params, body }) =>
      locked(async () => {
        const profile = await loadValid(dataDir, params.id);
        const preview = previewActivateMigration(profile, body ?? {});
        if (!preview.applicable) throw new ConsoleError('conflict', preview.message, { preview });
        const { profile: migrated, backup } = await applyActivateMigration(dataDir, vault, profile, preview);
        await profileEvents.emit({ type: 'saved', profile: migrated });
        return { preview, entry: await entryOf(params.id), backup };
      }),
  };
}
