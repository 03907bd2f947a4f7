// The projects capability: imports run in the background so the console can show
// their progress; the last few runs are kept in memory for the operator who started them.
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { ImportItem, ImportRun } from '../contract/projects';
import { ConsoleError } from '../errors';
import { readJsonFiles, PathError } from './files';
import { importBundle, type ImportDeps } from './import';
import { BundleError, isProjectDoc, readBundle, type UploadedFile } from './read';
import { findProject, type ProjectDoc } from './studio-projects';

const KEPT_RUNS = 10;

/** The example pre-built a first run imports: its name, and the folder it ships in (absent from a build without it). */
export interface ExampleSource {
  name: string;
  dir: string;
}

export function createProjectsService(deps: ImportDeps & { example?: () => ExampleSource }) {
  const runs = new Map<string, ImportRun>();

  function begin(source: string, files: UploadedFile[]): ImportRun {
    let bundle;
    try {
      bundle = readBundle(files);
    } catch (error) {
      if (error instanceof BundleError) throw new ConsoleError('bad_input', `body.files: ${error.message}`, { issues: [{ path: 'body.files', message: error.message }] });
      throw error;
    }
    const run: ImportRun = { id: randomUUID(), source, state: 'running', done: 0, total: bundle.artifacts.length };
    runs.set(run.id, run);
    for (const id of [...runs.keys()].slice(0, Math.max(0, runs.size - KEPT_RUNS))) runs.delete(id);
    importBundle(deps, bundle, (done, total, current) => Object.assign(run, { done, total, current })).then(
      (summary) => Object.assign(run, { state: 'done', summary, current: undefined }),
      (error: Error) => Object.assign(run, { state: 'failed', error: `the import stopped: ${error.message}` }),
    );
    return { ...run };
  }

  return {
    /** The active profile's store (Automation Studio's projects are read from it). */
    store: () => deps.store(),

    /** Starts importing the JSON files of a folder (or a project file) sent by the UI. */
    importFiles(files: UploadedFile[]): ImportRun {
      const folder = files[0]?.path.split('/')[0];
      return begin(files.length === 1 ? files[0]!.path : `${files.length} files of ${folder}`, files);
    },

    /** Starts importing a folder or project file on the console's machine. */
    async importPath(target: string): Promise<ImportRun> {
      const trimmed = target.trim();
      try {
        const { files } = await readJsonFiles(trimmed);
        if (files.length === 0) throw new PathError(`"${trimmed}" holds no JSON file`);
        return begin(trimmed, files);
      } catch (error) {
        if (error instanceof PathError) throw new ConsoleError('bad_input', `body.path: ${error.message}`, { issues: [{ path: 'body.path', message: error.message }] });
        if (error instanceof ConsoleError && error.code === 'bad_input') {
          const message = error.message.replace(/^body\.files: /, '');
          throw new ConsoleError('bad_input', `body.path: ${message}`, { issues: [{ path: 'body.path', message }] });
        }
        throw error;
      }
    },

    /** Starts importing the example pre-built shipped with the console. */
    async importExample(): Promise<ImportRun> {
      let example: ExampleSource | undefined;
      try {
        example = deps.example?.();
      } catch (error) {
        throw new ConsoleError('not_found', `the example pre-built is not shipped with this console (${error instanceof Error ? error.message : String(error)}): import a pre-built of your own on the Import page`);
      }
      if (!example || !existsSync(example.dir)) {
        throw new ConsoleError('not_found', `the example pre-built is not shipped with this console${example ? ` (no folder ${example.dir})` : ''}: import a pre-built of your own on the Import page`);
      }
      const { files } = await readJsonFiles(example.dir);
      return begin(example.name, files);
    },

    /**
     * Imports a project export now, as the service's Automation Studio does (`{ project }`): its components
     * into their collections and the project kept; answers the project kept and the components not imported.
     */
    async importProjectNow(project: Record<string, unknown>): Promise<{ project: ProjectDoc; failed: ImportItem[] }> {
      if (!isProjectDoc(project)) throw new ConsoleError('bad_input', 'body.project: a project export needs its components (an array)', { issues: [{ path: 'body.project.components', message: 'must be an array of components' }] });
      // A project with no _id is given one here, so the project kept is read back by it.
      const id = typeof project._id === 'string' && project._id ? project._id : randomBytes(12).toString('hex');
      const bundle = readBundle([{ path: 'project.project.json', content: { ...project, _id: id } }]);
      const summary = await importBundle(deps, bundle);
      return { project: await findProject(deps.store(), id), failed: summary.items.filter((item) => item.outcome === 'refused' || item.outcome === 'skipped') };
    },

    run(id: string): ImportRun {
      const run = runs.get(id);
      if (!run) throw new ConsoleError('not_found', `no import ${id}: it was never started here, or is older than the last ${KEPT_RUNS} kept`, { id });
      return { ...run };
    },
  };
}

export type ProjectsService = ReturnType<typeof createProjectsService>;
