// Reads what an operator hands over into one list of artifacts: a pre-built folder
// (`manifest.json` naming the files under `bundles/`, or `artifact.json` carrying
// them inline), or a project export (`*.project.json`, its `components`). Fields the
// console does not use are kept; files that are neither are left out, saying why.
import { kindOf, type ArtifactKind } from './kinds';
import { ConsoleError } from '../errors';

export interface UploadedFile {
  /** Path inside the chosen folder, `/`-separated (a directory picker gives `Folder/bundles/...`). */
  path: string;
  /** The parsed JSON of the file. */
  content: unknown;
}

export interface Artifact {
  kind: ArtifactKind | undefined;
  /** The type as the bundle wrote it (`json-forms`, `jsonForm`, ...). */
  type: string;
  name: string;
  /** The document; undefined when the manifest names a file that was not handed over. */
  data: unknown;
  /** Where it came from, for people: a file path or `project component 14`. */
  source: string;
  /** Why it is not imported though listed (a document of the same _id came first), said in the summary. */
  skip?: string;
}

export interface Bundle {
  format: 'prebuilt' | 'project';
  name: string;
  /** A project's `_id`: its workflows' child-job names may read `@<projectId>: Name`. */
  projectId?: string;
  /** A project export's own document, its components without their documents (kept as Automation Studio keeps it: studio-projects.ts). */
  project?: Record<string, unknown>;
  artifacts: Artifact[];
}

/** Files that do not make one bundle (a project with no components, a missing part). */
export class BundleError extends ConsoleError {
  constructor(message: string) {
    super('bad_input', message);
  }
}

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj => value !== null && typeof value === 'object' && !Array.isArray(value);
const normalize = (p: string) => p.replaceAll('\\', '/').replace(/^(\.\/|\/)+/, '');
const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/') + 1) : '');
const baseOf = (p: string) => p.slice(p.lastIndexOf('/') + 1);
const depth = (p: string) => p.split('/').length;

export const isProjectDoc = (value: unknown): value is Obj => isObject(value) && Array.isArray(value.components);

function nameOf(data: unknown, fallback: string): string {
  if (isObject(data) && typeof data.name === 'string' && data.name) return data.name;
  return fallback;
}

function fromProject(doc: Obj, file: string): Bundle {
  const components: unknown[] = Array.isArray(doc.components) ? doc.components : [];
  const artifacts: Artifact[] = components.map((component, index) => {
    const c = isObject(component) ? component : {};
    const type = String(c.type ?? '');
    return { kind: kindOf(type), type, name: nameOf(c.document, String(c.reference ?? `component ${index + 1}`)), data: c.document, source: `${file} component ${index + 1}` };
  });
  // The project as Automation Studio stores it: each component names its document (`reference`), not carries it.
  const project = { ...doc, components: components.map((component) => (isObject(component) ? Object.fromEntries(Object.entries(component).filter(([key]) => key !== 'document')) : component)) };
  return { format: 'project', name: typeof doc.name === 'string' ? doc.name : baseOf(file), projectId: typeof doc._id === 'string' ? doc._id : undefined, project, artifacts };
}

function fromPrebuilt(files: Map<string, unknown>, manifestPath: string | undefined, artifactPath: string | undefined): Bundle {
  const objectAt = (path: string | undefined) => {
    const value = path ? files.get(path) : undefined;
    return isObject(value) ? value : undefined;
  };
  const artifactDoc = objectAt(artifactPath);
  const root = dirOf(manifestPath ?? artifactPath ?? '');
  const bundles = artifactDoc?.bundles;
  const inline = Array.isArray(bundles) ? bundles.filter(isObject) : [];
  // artifact.json that carries its documents is the whole export: its own manifest lists them first. A
  // manifest.json beside it may be older (a pre-built whose manifest.json lists 2 of the 20 documents its
  // artifact.json holds); what it lists beyond them is added, never a second document of the same _id.
  const own = isObject(artifactDoc?.manifest) ? artifactDoc.manifest : undefined;
  const file = manifestPath ? objectAt(manifestPath) : undefined;
  const manifests = (inline.length ? [own, file] : [file ?? own]).filter(isObject);
  const [manifest] = manifests;
  const metadata = isObject(artifactDoc?.metadata) ? artifactDoc.metadata : {};
  const name = String(manifest?.bundleName ?? metadata.name ?? (root.replace(/\/$/, '') || 'pre-built'));
  const listed = manifests.flatMap((m) => (Array.isArray(m.artifacts) ? m.artifacts.filter(isObject) : []));

  const artifacts: Artifact[] = [];
  const used = new Set<Obj>();
  const ids = new Map<string, string>();
  for (const entry of listed) {
    if (artifacts.some((a) => a.kind === kindOf(String(entry.type ?? '')) && a.name === String(entry.name ?? ''))) continue;
    const type = String(entry.type ?? '');
    const location = typeof entry.location === 'string' ? normalize(entry.location) : '';
    const file = location ? root + location : '';
    let data = file ? files.get(file) : undefined;
    let source = file;
    if (data === undefined && location) {
      // Files picked one by one carry no folder: a name found once among them is the one.
      const same = [...files.keys()].filter((p) => baseOf(p) === baseOf(location));
      const [only] = same;
      if (same.length === 1 && only !== undefined) {
        data = files.get(only);
        source = only;
      }
    }
    if (data === undefined) {
      // artifact.json carries the same documents inline.
      const twin = inline.find((b) => !used.has(b) && kindOf(b.type) === kindOf(type) && nameOf(b.data, '') === String(entry.name ?? entry.id ?? ''));
      if (twin) {
        used.add(twin);
        data = twin.data;
        source = `${artifactPath} (bundles)`;
      }
    }
    const artifact: Artifact = { kind: kindOf(type), type, name: nameOf(data, String(entry.name ?? entry.id ?? location)), data, source: source || String(entry.name) };
    const id = isObject(data) && typeof data._id === 'string' ? data._id : undefined;
    const first = id === undefined ? undefined : ids.get(id);
    if (first !== undefined) artifact.skip = `${artifact.source} holds the document of _id ${id}, as "${first}" listed before it does: "${first}" is imported`;
    else if (id !== undefined) ids.set(id, artifact.name);
    artifacts.push(artifact);
  }
  if (listed.length === 0) {
    inline.forEach((b, index) => {
      const type = String(b.type ?? '');
      artifacts.push({ kind: kindOf(type), type, name: nameOf(b.data, `bundle ${index + 1}`), data: b.data, source: `${artifactPath} bundle ${index + 1}` });
    });
  }
  return { format: 'prebuilt', name, artifacts };
}

/** Loose `bundles/<kind>/*.json` files with no manifest: the folder names the kind. */
function fromBundleFolders(files: Map<string, unknown>): Bundle | undefined {
  const artifacts: Artifact[] = [];
  for (const [file, data] of files) {
    const match = /(?:^|\/)bundles\/([^/]+)\/[^/]+\.json$/.exec(file);
    if (!match) continue;
    const [, type = ''] = match;
    artifacts.push({ kind: kindOf(type), type, name: nameOf(data, baseOf(file)), data, source: file });
  }
  return artifacts.length ? { format: 'prebuilt', name: 'pre-built', artifacts } : undefined;
}

/** One bundle out of the files handed over; a BundleError says what is missing. */
export function readBundle(uploaded: UploadedFile[]): Bundle {
  const files = new Map(uploaded.map((f) => [normalize(f.path), f.content]));
  const shallowest = (base: string) =>
    [...files.keys()].filter((p) => baseOf(p) === base && isObject(files.get(p))).sort((a, b) => depth(a) - depth(b))[0];
  const manifestPath = shallowest('manifest.json');
  const artifactPath = shallowest('artifact.json');
  if (manifestPath || artifactPath) return fromPrebuilt(files, manifestPath, artifactPath);
  for (const [file, content] of files) if (isProjectDoc(content)) return fromProject(content, file);
  const loose = fromBundleFolders(files);
  if (loose) return loose;
  throw new BundleError(
    `none of the ${files.size} files is a pre-built (artifact.json or manifest.json with bundles/) or a project export (*.project.json with components)`,
  );
}
