// Where the desktop console keeps its data: CONSOLE_DATA_DIR, else Electron's userData
// folder. Electron's getPath throws when the OS gives it no such folder (no home, a
// profile it cannot resolve); the console then uses the folder the headless console
// uses on this platform and says so, rather than failing to start.
import { defaultDataDir } from '../core/host/data-dir';

export function desktopDataDir(getUserDataPath: () => unknown, env: NodeJS.ProcessEnv = process.env, warn: (message: string) => void = console.warn): string {
  if (env.CONSOLE_DATA_DIR) return env.CONSOLE_DATA_DIR;
  let why: string;
  try {
    const dir = getUserDataPath();
    if (typeof dir === 'string' && dir !== '') return dir;
    why = dir === '' ? 'it gave an empty path' : `it gave ${typeof dir}, not a path`;
  } catch (error) {
    why = (error as Error).message;
  }
  const fallback = defaultDataDir();
  warn(`Electron has no user data folder (${why}): the console keeps its data in ${fallback}`);
  return fallback;
}
