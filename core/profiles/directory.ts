// The profile directory: `profiles/<id>/properties.json` under the data directory,
// and `console.json` remembering which profile is active.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeJsonAtomic } from '../files/atomic';

/**
 * A profile's properties.json as the core passes it around; the full model (validation, field
 * paths in errors) is `ProfileProperties` of core/contract/profiles.ts. Unknown fields are kept.
 * A stored password may be sealed: read it with `profileSecrets.passwordOf` (./secrets).
 */
export interface ProfileProperties {
  id: string;
  serverName?: string;
  processTasksOnStart?: boolean;
  mongoProps?: {
    url?: string;
    db?: string;
    credentials?: { user?: string; passwd?: string; dbAuth?: boolean; [key: string]: unknown };
    ssl?: { enabled?: boolean; acceptInvalidCerts?: boolean; sslCA?: string; [key: string]: unknown };
    [key: string]: unknown;
  };
  pathProps?: { description?: string; sdk_dir?: string; encrypted?: boolean; [key: string]: unknown };
  [key: string]: unknown;
}

export const profilesDir = (dataDir: string) => path.join(dataDir, 'profiles');
export const profileDir = (dataDir: string, id: string) => path.join(profilesDir(dataDir), id);
export const propertiesFile = (dataDir: string, id: string) => path.join(profileDir(dataDir, id), 'properties.json');
const consoleStateFile = (dataDir: string) => path.join(dataDir, 'console.json');

/** The profile a new installation starts with: the embedded store, working tasks at startup. */
export function firstProfile(): ProfileProperties {
  return {
    id: 'default',
    serverName: os.hostname(),
    processTasksOnStart: true,
    mongoProps: { db: 'automation' },
    pathProps: { description: 'File Path Variables', sdk_dir: '', encrypted: false },
  };
}

export async function listProfileIds(dataDir: string): Promise<string[]> {
  try {
    const entries = await fs.readdir(profilesDir(dataDir), { withFileTypes: true });
    const ids: string[] = [];
    for (const entry of entries) {
      if (entry.isDirectory() && (await exists(propertiesFile(dataDir, entry.name)))) ids.push(entry.name);
    }
    return ids.sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

async function exists(file: string) {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

export async function readProperties(dataDir: string, id: string): Promise<ProfileProperties> {
  const file = propertiesFile(dataDir, id);
  const text = await fs.readFile(file, 'utf8');
  try {
    return JSON.parse(text) as ProfileProperties;
  } catch (error) {
    throw new Error(`${file} is not valid JSON: ${(error as Error).message}`);
  }
}

export async function readActiveProfileId(dataDir: string): Promise<string | undefined> {
  try {
    const state = JSON.parse(await fs.readFile(consoleStateFile(dataDir), 'utf8')) as { activeProfile?: string };
    return state.activeProfile;
  } catch {
    // No console.json yet, or one that cannot be read: no profile is remembered, and the first one is used.
    return undefined;
  }
}

export async function writeActiveProfileId(dataDir: string, id: string) {
  await writeJsonAtomic(consoleStateFile(dataDir), { activeProfile: id });
}

/** The active profile, creating the first one in an empty data directory. */
export async function ensureActiveProfile(dataDir: string): Promise<ProfileProperties> {
  let ids = await listProfileIds(dataDir);
  if (ids.length === 0) {
    const profile = firstProfile();
    await writeJsonAtomic(propertiesFile(dataDir, profile.id), profile, { mode: 0o600 });
    ids = [profile.id];
  }
  let active = await readActiveProfileId(dataDir);
  if (!active || !ids.includes(active)) {
    active = ids[0]!;
    await writeActiveProfileId(dataDir, active);
  }
  return readProperties(dataDir, active);
}
