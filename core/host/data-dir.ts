// The console's data directory: the token, the server id, and (under profiles/)
// one folder per profile. Electron uses its userData folder; headless takes --data-dir.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { writeFileAtomic } from '../files/atomic';

export function defaultDataDir(): string {
  const home = os.homedir();
  if (process.platform === 'win32') return path.join(process.env.APPDATA ?? home, 'Automation Console');
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Automation Console');
  return path.join(process.env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'automation-console');
}

async function readOrCreate(file: string, create: () => string, mode: number): Promise<string> {
  try {
    const value = (await fs.readFile(file, 'utf8')).trim();
    if (value) return value;
  } catch (error) {
    if (!(error instanceof Error && 'code' in error && error.code === 'ENOENT')) throw error;
  }
  const value = create();
  await writeFileAtomic(file, `${value}\n`, { mode });
  return value;
}

/** The token every API call must carry; kept owner-only in the data directory unless given. */
export async function consoleToken(dataDir: string, given?: string): Promise<string> {
  if (given) return given;
  const file = path.join(dataDir, 'console-token');
  const token = await readOrCreate(file, () => randomBytes(32).toString('base64url'), 0o600);
  // Tightening the mode is best effort (a file owned by another user still holds a usable token).
  await fs.chmod(file, 0o600).catch(() => undefined);
  return token;
}

/** A stable id for this console installation, used to tell servers apart on a shared database. */
export async function serverId(dataDir: string): Promise<string> {
  return readOrCreate(path.join(dataDir, 'server-id'), () => randomUUID(), 0o644);
}
