// Adapter packages in the service's format: a folder with `pronghorn.json` (`id`, `type:
// "Adapter"`, `export`, `src`, `methods[]` with `input[]` in call order), `propertiesSchema.json`,
// `sampleProperties.json` (a service config), `propertiesDecorators.json` (which properties are
// secrets) and `entities/<entity>/action.json` with mock data for stub mode. Unknown fields are
// kept: the raw method entries are handed on as they are.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { errorMessage, systemErrorCode } from '../errors';

export interface PronghornInput {
  name: string;
  type?: string;
  info?: string;
  description?: string;
  required?: boolean;
  schema?: unknown;
  [extra: string]: unknown;
}

export interface PronghornMethod {
  name: string;
  summary?: string;
  description?: string;
  input: PronghornInput[];
  output?: { name?: string; type?: string; description?: string; schema?: unknown; [extra: string]: unknown };
  route?: { verb?: string; path?: string };
  task?: boolean;
  roles?: string[];
  [extra: string]: unknown;
}

export interface AdapterPackage {
  /** pronghorn.json `id`: the package name, e.g. `@itentialopensource/adapter-tufin_securetrack`. */
  name: string;
  /** The class the module exports; a service config's `type` names it. */
  export: string;
  title: string;
  version: string;
  description: string;
  dir: string;
  /** Absolute path of the module (pronghorn.json `src`, else package.json `main`). */
  src: string;
  methods: PronghornMethod[];
  propertiesSchema?: Record<string, unknown>;
  /** sampleProperties.json: a service config to start a new instance from. */
  sampleProperties?: Record<string, unknown>;
  /** JSON pointers of properties the package marks as secrets (propertiesDecorators.json). */
  secretPointers: string[];
  /** Where it was found: shipped with the console, the profile's sdk_dir, or the data directory. */
  source: 'shipped' | 'sdk' | 'data-dir' | 'simulated';
  /** Set when the package cannot be run: names the file and the cause. */
  problem?: string;
}

async function readJson(file: string): Promise<unknown | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if (systemErrorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not valid JSON: ${errorMessage(error)}`, { cause: error });
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The problems of a pronghorn.json, each naming the field. */
function pronghornProblems(raw: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (typeof raw.id !== 'string' || raw.id === '') problems.push('id: expected the package name');
  if (typeof raw.export !== 'string' || raw.export === '') problems.push('export: expected the class name the module exports');
  if (!Array.isArray(raw.methods)) problems.push('methods: expected an array');
  else
    raw.methods.forEach((method, i) => {
      if (!isObject(method) || typeof method.name !== 'string') problems.push(`methods.${i}.name: expected a string`);
      else if (method.input !== undefined && !Array.isArray(method.input)) problems.push(`methods.${i}.input: expected an array`);
    });
  return problems;
}

/** A method entry of pronghorn.json (pronghornProblems checked each has a name). */
const isMethod = (method: unknown): method is Record<string, unknown> & { name: string } => isObject(method) && typeof method.name === 'string';

/** An input as given; one that is only a name, or has none, still takes its place in the call order. */
function inputOf(input: unknown, i: number): PronghornInput {
  if (typeof input === 'string') return { name: input };
  if (!isObject(input)) return { name: `input${i + 1}` };
  return { ...input, name: typeof input.name === 'string' ? input.name : `input${i + 1}` };
}

/** Reads one adapter package folder; undefined when the folder is not one (no pronghorn.json of type Adapter). */
export async function readAdapterPackage(dir: string, source: AdapterPackage['source']): Promise<AdapterPackage | undefined> {
  const file = path.join(dir, 'pronghorn.json');
  const broken = (problem: string, raw?: Record<string, unknown>): AdapterPackage => ({
    name: typeof raw?.id === 'string' ? raw.id : path.basename(dir),
    export: typeof raw?.export === 'string' ? raw.export : '',
    title: typeof raw?.title === 'string' ? raw.title : path.basename(dir),
    version: 'unknown',
    description: '',
    dir,
    src: '',
    methods: [],
    secretPointers: [],
    source,
    problem,
  });
  let raw: unknown;
  try {
    raw = await readJson(file);
  } catch (error) {
    return broken(errorMessage(error));
  }
  if (raw === undefined) return undefined;
  if (!isObject(raw)) return broken(`${file}: expected a JSON object`);
  if (raw.type !== undefined && raw.type !== 'Adapter') return undefined; // an application package
  const problems = pronghornProblems(raw);
  if (problems.length || typeof raw.id !== 'string' || typeof raw.export !== 'string') return broken(`${file}: ${problems.join('; ')}`, raw);
  try {
    const pkgJson = await readJson(path.join(dir, 'package.json'));
    const pkg = isObject(pkgJson) ? pkgJson : undefined;
    const schema = await readJson(path.join(dir, 'propertiesSchema.json'));
    const sample = await readJson(path.join(dir, 'sampleProperties.json'));
    const decorators = await readJson(path.join(dir, 'propertiesDecorators.json'));
    const srcName = typeof raw.src === 'string' && raw.src ? raw.src : (typeof pkg?.main === 'string' ? pkg.main : 'adapter.js');
    const src = path.resolve(dir, srcName);
    const methods: PronghornMethod[] = (Array.isArray(raw.methods) ? raw.methods : []).filter(isMethod).map((m) => ({ ...m, input: Array.isArray(m.input) ? m.input.map(inputOf) : [] }));
    const found: AdapterPackage = {
      name: raw.id,
      export: raw.export,
      title: typeof raw.title === 'string' ? raw.title : raw.export,
      version: typeof pkg?.version === 'string' ? pkg.version : typeof raw.version === 'string' ? raw.version : 'unknown',
      description: typeof pkg?.description === 'string' ? pkg.description : typeof raw.summary === 'string' ? raw.summary : '',
      dir,
      src,
      methods,
      ...(isObject(schema) ? { propertiesSchema: schema } : {}),
      ...(isObject(sample) ? { sampleProperties: sample } : {}),
      secretPointers: Array.isArray(decorators)
        ? decorators.filter((d): d is { pointer: string } => isObject(d) && d.type === 'encryption' && typeof d.pointer === 'string').map((d) => d.pointer)
        : [],
      source,
    };
    if (src !== dir && !src.startsWith(dir + path.sep)) found.problem = `${file}: src "${srcName}" points outside the package folder`;
    return found;
  } catch (error) {
    return broken(errorMessage(error), raw);
  }
}

/** The method of a package by name. */
export function findMethod(pkg: AdapterPackage, name: string): PronghornMethod | undefined {
  return pkg.methods.find((m) => m.name === name);
}
