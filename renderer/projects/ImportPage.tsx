// The Import page (#/import): a pre-built folder (artifact.json / manifest.json with
// bundles/) or a project export (*.project.json) imported in one step, with progress,
// then a summary of what was imported, replaced, refused or left out, and what the
// workflows still need.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ChangeEvent, type FormEvent } from 'react';
import type { ImportRun } from '../../core/contract/projects';
import { ApiError, call } from '../api/client';
import { ImportSummaryView } from './ImportSummary';
import { ProjectsKept } from './ProjectsKept';
import { Alert } from '../shell/Alert';
import { qk, refreshAfter } from '../api/keys';

interface Picked {
  files: { path: string; content: unknown }[];
  unreadable: string[];
}

/** The JSON files of what was picked (a folder, or files), parsed; the others are left out. */
async function readPicked(list: FileList): Promise<Picked> {
  const picked: Picked = { files: [], unreadable: [] };
  for (const file of Array.from(list)) {
    const path = file.webkitRelativePath || file.name;
    if (!file.name.toLowerCase().endsWith('.json')) continue;
    try {
      picked.files.push({ path, content: JSON.parse(await file.text()) });
    } catch (error) {
      picked.unreadable.push(`${path}: not JSON (${(error as Error).message})`);
    }
  }
  return { ...picked, files: withoutRedundant(picked.files) };
}

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/**
 * Keeps the upload small: with a manifest.json the reader never uses a project file, nor
 * artifact.json when every file the manifest names is there (it carries the same documents).
 */
function withoutRedundant(files: Picked['files']): Picked['files'] {
  const manifest = files.find((f) => baseName(f.path) === 'manifest.json');
  if (!manifest) return files;
  const root = manifest.path.slice(0, manifest.path.length - 'manifest.json'.length);
  const paths = new Set(files.map((f) => f.path));
  const artifacts = (manifest.content as { artifacts?: unknown } | null)?.artifacts;
  const listed = Array.isArray(artifacts) ? (artifacts as { location?: unknown }[]) : [];
  const allThere = listed.length > 0 && listed.every((a) => typeof a.location === 'string' && paths.has(root + a.location.replace(/^\/+/, '')));
  return files.filter((f) => !f.path.endsWith('.project.json') && !(allThere && f.path === `${root}artifact.json`));
}

export function ImportPage() {
  const queryClient = useQueryClient();
  const [unreadable, setUnreadable] = useState<string[]>([]);
  const [pickError, setPickError] = useState<string | null>(null);
  const [serverPath, setServerPath] = useState('');
  const [inputKey, setInputKey] = useState(0);

  const start = useMutation({
    mutationFn: (input: { files: Picked['files'] } | { path: string }) =>
      'path' in input ? call('projects.importPath', { body: { path: input.path } }) : call('projects.import', { body: { files: input.files } }),
  });
  const runId = start.data?.id;
  const run = useQuery({
    queryKey: qk.importRun(runId),
    queryFn: () => call('projects.importRun', { params: { id: runId! } }),
    enabled: Boolean(runId),
    refetchInterval: (query) => (query.state.data?.state === 'running' || !query.state.data ? 250 : false),
  });
  const current = run.data ?? start.data;
  const running = start.isPending || current?.state === 'running';
  // Once an import is done, the Workflows page reads the list again (new workflows, new needs), and the projects kept.
  const finished = current?.state === 'done' ? current.id : undefined;
  useEffect(() => {
    if (finished) void refreshAfter(queryClient, 'imports');
  }, [finished, queryClient]);

  async function onPick(event: ChangeEvent<HTMLInputElement>) {
    const list = event.target.files;
    setInputKey((k) => k + 1);
    setPickError(null);
    if (!list || list.length === 0) return;
    const picked = await readPicked(list);
    setUnreadable(picked.unreadable);
    if (picked.files.length === 0) {
      setPickError(`None of the ${list.length} files picked is JSON: pick the pre-built's folder, or its JSON files.`);
      return;
    }
    start.mutate({ files: picked.files });
  }

  const submitPath = (event: FormEvent) => {
    event.preventDefault();
    setUnreadable([]);
    setPickError(null);
    start.mutate({ path: serverPath.trim() });
  };

  const fieldError = start.error instanceof ApiError ? (start.error.fieldErrors['body.files'] ?? start.error.fieldErrors['body.path']) : undefined;
  return (
    <section>
      <h1>Import a pre-built or a project</h1>
      <p className="muted">
        A pre-built's folder (its <code>artifact.json</code> or <code>manifest.json</code> with <code>bundles/</code>) or a project export (
        <code>*.project.json</code>). Workflows, transformations, JSON forms, templates, MOP templates and automations each go to their
        collection; an artifact of the same name is replaced. What the workflows need and this profile lacks is listed at the end.
      </p>
      <div className="import-pickers">
        <label>
          Pre-built folder <input key={`dir-${inputKey}`} type="file" {...{ webkitdirectory: '', directory: '' }} multiple onChange={(event) => void onPick(event)} disabled={running} />
        </label>{' '}
        <label>
          Or files (project export, or the folder’s JSON files){' '}
          <input key={`files-${inputKey}`} type="file" accept=".json,application/json" multiple onChange={(event) => void onPick(event)} disabled={running} />
        </label>
      </div>
      <form className="upgrade-form" onSubmit={submitPath}>
        <label>
          Or a folder or file on the console's machine{' '}
          <input type="text" size={60} value={serverPath} onChange={(e) => setServerPath(e.target.value)} placeholder="/opt/automation/prebuilts/AWS-EC2-REST" />
        </label>{' '}
        <button className="primary" type="submit" disabled={running || serverPath.trim() === ''}>
          Import
        </button>
      </form>
      {pickError && (
        <Alert>
          {pickError}
        </Alert>
      )}
      {unreadable.length > 0 && (
        <div className="banner" role="status" aria-label="Files left out">
          {unreadable.length} file{unreadable.length === 1 ? '' : 's'} left out:
          <ul>
            {unreadable.map((u) => (
              <li key={u}>{u}</li>
            ))}
          </ul>
        </div>
      )}
      {running && <Progress run={current} />}
      {start.isError && (
        <Alert>
          The import could not start: {fieldError ?? start.error.message}
        </Alert>
      )}
      {run.isError && (
        <Alert>
          Cannot read the import's progress: {run.error.message}
        </Alert>
      )}
      {current?.state === 'failed' && (
        <Alert>
          {current.error}
        </Alert>
      )}
      {current?.state === 'done' && current.summary && !start.isPending && <ImportSummaryView summary={current.summary} />}
      <ProjectsKept />
    </section>
  );
}

function Progress({ run }: { run: ImportRun | undefined }) {
  return (
    <div role="status" aria-label="Import progress" className="upgrade-progress">
      <span className="spinner" />{' '}
      {run && run.total > 0 ? (
        <>
          <progress max={run.total} value={run.done} /> Imported {run.done} of {run.total}
          {run.current && (
            <>
              : <code>{run.current}</code>
            </>
          )}
        </>
      ) : (
        'Reading the files…'
      )}
    </div>
  );
}
