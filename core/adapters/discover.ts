// Where a site's adapter packages are: as the service installs them under the profile's
// `pathProps.sdk_dir` (`node_modules/@itentialopensource/adapter-*`, other `node_modules/adapter-*`,
// plain folders, and an `adapters/` folder), then `<data-dir>/adapters` (installed through the
// console), then the packages shipped with the console. The first package with a name wins;
// discovery never throws for one bad package: it is listed with the reason.
import { promises as fs, type Dirent } from 'node:fs';
import path from 'node:path';
import { readAdapterPackage, type AdapterPackage } from './package';
import { errorMessage, systemErrorCode } from '../errors';

async function subfolders(dir: string, keep: (name: string) => boolean = () => true): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch (error) {
    const code = systemErrorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw new Error(`cannot read the adapters folder ${dir}: ${errorMessage(error)}`, { cause: error });
  }
  return entries
    .filter((e) => (e.isDirectory() || e.isSymbolicLink()) && !e.name.startsWith('.') && e.name !== 'node_modules' && keep(e.name))
    .map((e) => path.join(dir, e.name))
    .sort();
}

/** The folders that may hold an adapter package for an sdk_dir, in the order they are searched. */
export async function sdkCandidates(sdkDir: string): Promise<string[]> {
  const modules = path.join(sdkDir, 'node_modules');
  return [
    sdkDir,
    ...(await subfolders(path.join(modules, '@itentialopensource'), (n) => n.startsWith('adapter-'))),
    ...(await subfolders(modules, (n) => n.startsWith('adapter-'))),
    ...(await subfolders(sdkDir)),
    ...(await subfolders(path.join(sdkDir, 'adapters'))),
  ];
}

export interface DiscoverPlaces {
  sdkDir?: string;
  dataDirAdapters?: string;
  shippedDir?: string;
}

export interface Discovered {
  packages: AdapterPackage[];
  /** Folders that could not be read, each with the cause. */
  problems: string[];
}

export async function discoverPackages(places: DiscoverPlaces): Promise<Discovered> {
  const byName = new Map<string, AdapterPackage>();
  const problems: string[] = [];
  const visit = async (folders: () => Promise<string[]>, source: AdapterPackage['source']) => {
    let list: string[];
    try {
      list = await folders();
    } catch (error) {
      problems.push(errorMessage(error));
      return;
    }
    for (const dir of list) {
      const pkg = await readAdapterPackage(dir, source);
      if (pkg && !byName.has(pkg.name)) byName.set(pkg.name, pkg);
    }
  };
  const { sdkDir, dataDirAdapters, shippedDir } = places;
  if (sdkDir) await visit(() => sdkCandidates(sdkDir), 'sdk');
  if (dataDirAdapters) await visit(() => subfolders(dataDirAdapters), 'data-dir');
  if (shippedDir) await visit(() => subfolders(shippedDir), 'shipped');
  return { packages: [...byName.values()], problems };
}

/** The package whose class a service config's `type` names. */
export function packageForType(packages: AdapterPackage[], type: unknown): AdapterPackage | undefined {
  return typeof type === 'string' ? packages.find((p) => p.export === type) : undefined;
}
