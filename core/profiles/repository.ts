// Reads and writes of the profile directory, one at a time per data directory. Every save is
// atomic and keeps the previous file as `properties.json.bak`. A deleted profile's folder
// (with its embedded database) is moved aside, never erased.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { validateProperties, type FieldIssue } from '../contract/profiles';
import { writeJsonAtomic } from '../files/atomic';
import { sealBackup } from './secrets';
import type { Vault } from '../secrets/secrets';
import { listProfileIds, NoActiveProfile, profileDir, propertiesFile, readActiveProfileId, type ProfileProperties } from './directory';

export class ProfileNotFound extends Error {
  constructor(readonly id: string) {
    super(`no profile "${id}"`);
  }
}

export class InvalidProperties extends Error {
  constructor(
    readonly id: string,
    readonly issues: FieldIssue[],
  ) {
    super(`profile "${id}": ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  }
}

/** One profile as found on disk: its JSON, or why it cannot be read. */
export interface StoredProfile {
  id: string;
  json: Record<string, unknown>;
  /** Set when the file is not valid JSON or does not follow the model. */
  problem?: string;
  issues?: FieldIssue[];
  /** The profile, when it follows the model and lives in its own folder. */
  valid?: ProfileProperties;
}

// Process-wide on purpose (docs/architecture.md, Process-wide resources): two services of the same
// data directory (an old profile's and a new one's during a switch) must queue behind the same writes.
const queues = new Map<string, Promise<unknown>>();

/** Runs changes to one data directory's profiles one after another (saves, deletes, activation). */
export function withProfilesLock<T>(dataDir: string, work: () => Promise<T>): Promise<T> {
  const key = path.resolve(dataDir);
  const previous = queues.get(key) ?? Promise.resolve();
  const next = previous.then(work, work);
  // The caller gets `next`'s error; the queue only needs to know the work is over.
  const settled = next.catch(() => undefined);
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return next;
}

export async function profileExists(dataDir: string, id: string): Promise<boolean> {
  return fs.access(propertiesFile(dataDir, id)).then(
    () => true,
    () => false,
  );
}

export async function loadStored(dataDir: string, id: string): Promise<StoredProfile> {
  let text: string;
  try {
    text = await fs.readFile(propertiesFile(dataDir, id), 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') throw new ProfileNotFound(id);
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { id, json: { id }, problem: `properties.json is not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  const checked = validateProperties(json);
  if (!checked.ok) {
    const problem = `properties.json does not follow the model: ${checked.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`;
    const base = isRecord(json) ? json : {};
    return { id, json: { ...base, id }, problem, issues: checked.issues };
  }
  if (checked.value.id !== id) {
    return { id, json: { ...checked.value, id }, problem: `properties.json says id "${checked.value.id}" but lives in the folder of "${id}"` };
  }
  return { id, json: checked.value, valid: checked.value };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A profile that follows the model, or an error naming each field that does not. */
export async function loadValid(dataDir: string, id: string): Promise<ProfileProperties> {
  const stored = await loadStored(dataDir, id);
  if (stored.valid) return stored.valid;
  throw new InvalidProperties(id, stored.issues ?? [{ path: '(file)', message: stored.problem ?? 'does not follow the model' }]);
}

export async function loadAll(dataDir: string): Promise<StoredProfile[]> {
  const ids = await listProfileIds(dataDir);
  return Promise.all(ids.map((id) => loadStored(dataDir, id)));
}

/** Writes properties.json atomically, the previous version kept as `properties.json.bak`. */
export async function writeProfile(dataDir: string, vault: Vault, profile: ProfileProperties): Promise<string> {
  const file = propertiesFile(dataDir, profile.id);
  await writeJsonAtomic(file, profile, { backup: true, mode: 0o600 });
  await sealBackup(vault, profile, `${file}.bak`);
  return `${file}.bak`;
}

/** Moves the profile's folder to `<dataDir>/deleted-profiles/<id>.<time>` and says where. */
export async function removeProfile(dataDir: string, id: string): Promise<string> {
  if (!(await profileExists(dataDir, id))) throw new ProfileNotFound(id);
  const trash = path.join(dataDir, 'deleted-profiles');
  await fs.mkdir(trash, { recursive: true });
  const target = path.join(trash, `${id}.${new Date().toISOString().replace(/[:.]/g, '-')}`);
  await fs.rename(profileDir(dataDir, id), target);
  return target;
}

/** The active profile's id from console.json; throws NoActiveProfile when console.json cannot be read. */
export async function activeId(dataDir: string): Promise<string | undefined> {
  return readActiveProfileId(dataDir);
}

/** The active profile's id, or why none is (console.json cannot be read): for answers that list profiles. */
export async function activeOrProblem(dataDir: string): Promise<{ id?: string; problem?: string }> {
  try {
    return { id: await readActiveProfileId(dataDir) };
  } catch (error) {
    if (error instanceof NoActiveProfile) return { problem: error.message };
    throw error;
  }
}
