// Import transformation files (one or many JST documents, as the service exports
// them). Each file refused is listed with why; the others are stored.
import { useState, type ChangeEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import { Alert } from '../shell/Alert';
import { refreshAfter } from '../api/keys';

interface Outcome {
  imported: { _id: string; name: string }[];
  problems: { name: string; message: string }[];
  warnings: string[];
}

export function ImportTransformations() {
  const queryClient = useQueryClient();
  const [overwrite, setOverwrite] = useState(false);
  const [unreadable, setUnreadable] = useState<string[]>([]);
  const [inputKey, setInputKey] = useState(0);
  const importing = useMutation({
    mutationFn: (docs: unknown[]): Promise<Outcome> => call('transformations.import', { body: { transformations: docs, overwrite } }),
    onSuccess: () => void refreshAfter(queryClient, 'transformations'),
  });

  async function onFiles(event: ChangeEvent<HTMLInputElement>) {
    const files = [...(event.target.files ?? [])];
    const docs: unknown[] = [];
    const bad: string[] = [];
    for (const file of files) {
      try {
        const json = JSON.parse(await file.text()) as unknown;
        // A file may hold one document or an array of them.
        docs.push(...(Array.isArray(json) ? json : [json]));
      } catch (error) {
        bad.push(`${file.name}: not JSON (${(error as Error).message})`);
      }
    }
    setUnreadable(bad);
    setInputKey((k) => k + 1);
    if (docs.length > 0) importing.mutate(docs);
  }

  const outcome = importing.data;
  return (
    <div className="import">
      <label>
        Import transformation files (JSON){' '}
        <input key={inputKey} type="file" accept=".json,application/json" multiple onChange={(event) => void onFiles(event)} aria-label="Import transformation files" />
      </label>{' '}
      <label>
        <input type="checkbox" checked={overwrite} onChange={(e) => setOverwrite(e.target.checked)} /> Replace ones with the same _id or name
      </label>
      {importing.isPending && <p>Importing…</p>}
      {importing.isError && (
        <Alert>
          Cannot import: {importing.error.message}
        </Alert>
      )}
      {unreadable.length > 0 && (
        <Alert as="ul" label="Unreadable files">
          {unreadable.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </Alert>
      )}
      {outcome && (
        <div role="status" aria-label="Import result">
          {outcome.imported.length > 0 && <p>Imported {outcome.imported.map((d) => `“${d.name}”`).join(', ')}.</p>}
          {outcome.problems.length > 0 && (
            <div className="banner error">
              <strong>Not imported:</strong>
              <ul>
                {outcome.problems.map((p) => (
                  <li key={p.name + p.message}>
                    {p.name}: {p.message}
                  </li>
                ))}
              </ul>
            </div>
          )}
          {outcome.warnings.length > 0 && (
            <div className="banner">
              <strong>Stored, but cannot run here:</strong>
              <ul>
                {outcome.warnings.map((w) => (
                  <li key={w}>{w}</li>
                ))}
              </ul>
            </div>
          )}
        </div>
      )}
    </div>
  );
}
