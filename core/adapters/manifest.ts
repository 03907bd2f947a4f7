// Adapter packages: a folder with an `adapter.json` manifest, or a package.json with an
// `adapter` field (id, methods, entry; name/version/description come from package.json).
// Discovery never throws for one bad package: it is listed with the reason, so the operator
// sees it on the Health page instead of it silently missing.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const MethodDeclaration = z.union([
  z.string().min(1),
  z.object({ name: z.string().min(1), description: z.string().optional() }),
]);

export const AdapterManifest = z.object({
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'expected letters, digits, "_", "." or "-"'),
  package_id: z.string().min(1).optional(),
  version: z.string().min(1),
  description: z.string().default(''),
  entry: z.string().min(1).default('index.js'),
  routePrefix: z.string().optional(),
  methods: z.array(MethodDeclaration).min(1, 'an adapter declares at least one method'),
  /** Default configuration, overridden by `<profile adapters dir>/<id>.config.json`. */
  config: z.record(z.string(), z.unknown()).default({}),
});

export interface MethodInfo {
  name: string;
  description?: string;
}

export interface AdapterDefinition {
  id: string;
  package_id: string;
  version: string;
  description: string;
  routePrefix: string;
  methods: MethodInfo[];
  /** Absolute path of the module the runner loads. */
  entry: string;
  dir: string;
  config: Record<string, unknown>;
  source: 'shipped' | 'profile';
  /** Set when the package cannot be started: names the file and the cause. */
  problem?: string;
}

async function readJson(file: string): Promise<unknown | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not valid JSON: ${(error as Error).message}`);
  }
}

function issuesText(file: string, error: z.ZodError) {
  return `${file}: ${error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ')}`;
}

/** Reads one adapter package folder; undefined when the folder is not an adapter package. */
export async function readAdapterPackage(dir: string, source: AdapterDefinition['source']): Promise<AdapterDefinition | undefined> {
  const folder = path.basename(dir);
  const broken = (problem: string, declaredId?: unknown): AdapterDefinition => {
    const id = typeof declaredId === 'string' && /^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(declaredId) ? declaredId : folder;
    return { id, package_id: id, version: 'unknown', description: '', routePrefix: id, methods: [], entry: '', dir, config: {}, source, problem };
  };
  try {
    const manifestFile = path.join(dir, 'adapter.json');
    const packageFile = path.join(dir, 'package.json');
    let raw = await readJson(manifestFile);
    let file = manifestFile;
    let pkg: { name?: string; version?: string; description?: string; main?: string; adapter?: Record<string, unknown> } | undefined;
    if (raw === undefined) {
      pkg = (await readJson(packageFile)) as typeof pkg;
      if (!pkg || typeof pkg !== 'object' || !pkg.adapter) return undefined;
      file = `${packageFile} ("adapter" field)`;
      raw = { version: pkg.version, description: pkg.description, package_id: pkg.name, entry: pkg.main, ...pkg.adapter };
    }
    const parsed = AdapterManifest.safeParse(raw);
    if (!parsed.success) return broken(issuesText(file, parsed.error), (raw as { id?: unknown } | null)?.id);
    const manifest = parsed.data;
    const entry = path.resolve(dir, manifest.entry);
    if (entry !== dir && !entry.startsWith(dir + path.sep)) return broken(`${file}: entry "${manifest.entry}" points outside the adapter's folder`);
    const methods = manifest.methods.map((m) => (typeof m === 'string' ? { name: m } : m));
    const definition: AdapterDefinition = {
      id: manifest.id,
      package_id: manifest.package_id ?? manifest.id,
      version: manifest.version,
      description: manifest.description,
      routePrefix: manifest.routePrefix ?? manifest.id,
      methods,
      entry,
      dir,
      config: manifest.config,
      source,
    };
    try {
      await fs.access(entry);
    } catch {
      definition.problem = `${file}: entry ${manifest.entry} does not exist in ${dir}`;
    }
    return definition;
  } catch (error) {
    return broken((error as Error).message);
  }
}

/** Adapter packages in one directory (each subfolder with a manifest); a missing directory has none. */
export async function scanAdaptersDir(dir: string, source: AdapterDefinition['source']): Promise<AdapterDefinition[]> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    // Listed as a broken package rather than failing the whole profile.
    const problem = `cannot read the adapters directory ${dir}: ${(error as Error).message}`;
    return [{ id: `${source}-adapters-directory`, package_id: '', version: 'unknown', description: problem, routePrefix: '', methods: [], entry: '', dir, config: {}, source, problem }];
  }
  const found: AdapterDefinition[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isDirectory() || entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const definition = await readAdapterPackage(path.join(dir, entry.name), source);
    if (definition) found.push(definition);
  }
  return found;
}

/** The operator's configuration of an adapter: `<profile adapters dir>/<id>.config.json`, over the manifest's defaults. */
export async function adapterConfig(definition: AdapterDefinition, profileDir: string): Promise<Record<string, unknown>> {
  const file = path.join(profileDir, `${definition.id}.config.json`);
  const override = await readJson(file);
  if (override === undefined) return definition.config;
  if (!override || typeof override !== 'object' || Array.isArray(override)) throw new Error(`${file}: expected a JSON object`);
  return { ...definition.config, ...(override as Record<string, unknown>) };
}

/**
 * All adapters of a profile: the shipped ones, then the profile's own. A profile package with the
 * id of a shipped one replaces it; a second package with an id already taken is listed as a problem.
 */
export async function discoverAdapters(shippedDir: string, profileDir: string): Promise<AdapterDefinition[]> {
  const byId = new Map<string, AdapterDefinition>();
  for (const definition of await scanAdaptersDir(shippedDir, 'shipped')) if (!byId.has(definition.id)) byId.set(definition.id, definition);
  const fromProfile = path.resolve(profileDir) === path.resolve(shippedDir) ? [] : await scanAdaptersDir(profileDir, 'profile');
  const profileIds = new Set<string>();
  for (const definition of fromProfile) {
    if (profileIds.has(definition.id)) {
      const key = `${definition.id}@${path.basename(definition.dir)}`;
      byId.set(key, { ...definition, id: key, problem: `duplicate adapter id "${definition.id}" (also in another folder of ${profileDir}); rename one` });
      continue;
    }
    profileIds.add(definition.id);
    byId.set(definition.id, definition);
  }
  return [...byId.values()];
}
