// The profile directory: `profiles/<id>/properties.json` under the data directory,
// and `console.json` remembering which profile is active. A console.json that cannot be read
// is an error the console shows: no other profile is ever activated in its place (on a DR
// standby that could start the task worker).
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { ProfileId, validateProperties, type ProfileProperties } from '../contract/profiles';
import { writeJsonAtomic } from '../files/atomic';

export type { ProfileProperties };

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

/**
 * The console cannot tell which profile is active: console.json cannot be read, or names a
 * profile that cannot be opened. The console runs with no profile until the operator activates one.
 */
export class NoActiveProfile extends Error {
  constructor(readonly problem: string) {
    super(`no profile is active: ${problem}; activate a profile to choose the one this console runs`);
    this.name = 'NoActiveProfile';
  }
}

const errnoCode = (error: unknown) => (error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined);
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function listProfileIds(dataDir: string): Promise<string[]> {
  try {
    const entries = await fs.readdir(profilesDir(dataDir), { withFileTypes: true });
    const ids: string[] = [];
    for (const entry of entries) {
      if (entry.isDirectory() && (await exists(propertiesFile(dataDir, entry.name)))) ids.push(entry.name);
    }
    return ids.sort();
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return [];
    throw error;
  }
}

async function exists(file: string) {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

/** A profile's properties.json, checked against the model; an error names the file and each field that does not follow it. */
export async function readProperties(dataDir: string, id: string): Promise<ProfileProperties> {
  const file = propertiesFile(dataDir, id);
  const text = await fs.readFile(file, 'utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not valid JSON: ${messageOf(error)}`, { cause: error });
  }
  const checked = validateProperties(json);
  if (!checked.ok) throw new Error(`${file} does not follow the model: ${checked.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  return checked.value;
}

const ConsoleState = z.looseObject({ activeProfile: ProfileId });

/**
 * The active profile's id from console.json; undefined only when there is no console.json
 * (a new data directory). One that cannot be read or names no profile id is a NoActiveProfile.
 */
export async function readActiveProfileId(dataDir: string): Promise<string | undefined> {
  const file = consoleStateFile(dataDir);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw new NoActiveProfile(`${file} cannot be read (${messageOf(error)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new NoActiveProfile(`${file} is not valid JSON (${messageOf(error)})`);
  }
  const state = ConsoleState.safeParse(json);
  if (!state.success) throw new NoActiveProfile(`${file} does not name the active profile ("activeProfile": a profile id)`);
  return state.data.activeProfile;
}

export async function writeActiveProfileId(dataDir: string, id: string) {
  await writeJsonAtomic(consoleStateFile(dataDir), { activeProfile: id });
}

/** The profile the console opens at start, or why none can be (the console then runs with no profile). */
export type StartingProfile = { profile: ProfileProperties; problem?: undefined } | { profile?: undefined; problem: NoActiveProfile };

/** The active profile; in an empty data directory the first one is created and activated. */
export async function ensureActiveProfile(dataDir: string): Promise<StartingProfile> {
  let ids = await listProfileIds(dataDir);
  if (ids.length === 0) {
    const profile = firstProfile();
    await writeJsonAtomic(propertiesFile(dataDir, profile.id), profile, { mode: 0o600 });
    ids = [profile.id];
  }
  let active: string | undefined;
  try {
    active = await readActiveProfileId(dataDir);
  } catch (error) {
    if (error instanceof NoActiveProfile) return { problem: error };
    throw error;
  }
  if (active === undefined) {
    // No console.json: a new data directory (or one whose profiles were copied in): its first profile.
    const [first] = ids;
    if (first === undefined) throw new Error(`no profile in ${profilesDir(dataDir)}`);
    active = first;
    await writeActiveProfileId(dataDir, active);
  }
  if (!ids.includes(active)) return { problem: new NoActiveProfile(`console.json names profile "${active}", which is not in ${profilesDir(dataDir)}`) };
  try {
    return { profile: await readProperties(dataDir, active) };
  } catch (error) {
    return { problem: new NoActiveProfile(`the active profile "${active}" cannot be read: ${messageOf(error)}`) };
  }
}
