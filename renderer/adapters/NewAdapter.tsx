// A new adapter instance: pick a package, start from its sampleProperties.json, fill the form
// generated from its propertiesSchema.json, create (POST /adapters). And import of an exported
// service config (POST /adapters/import).
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, call } from '../api/client';
import type { ServiceConfig } from '../../core/contract/adapters';
import { SchemaForm } from './SchemaForm';
import { Alert } from '../shell/Alert';
import { qk, refreshAfter } from '../api/keys';

/** Field errors of a service config answer, by property path. */
export function propertyErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const prefix = 'body.properties.properties.';
  return Object.fromEntries(Object.entries(error.fieldErrors).filter(([p]) => p.startsWith(prefix)).map(([p, m]) => [p.slice(prefix.length), m]));
}

export function NewAdapter() {
  const client = useQueryClient();
  // The packages are looked for again every 30 s and on "Look for new packages": one installed into
  // sdk_dir while the console runs is offered without a restart.
  const packages = useQuery({ queryKey: qk.adapterPackages(), queryFn: () => call('adapters.packages', { query: { rescan: 'true' } }), refetchInterval: 30_000 });
  const [pkg, setPkg] = useState('');
  const [name, setName] = useState('');
  const [config, setConfig] = useState<ServiceConfig>();
  const [schema, setSchema] = useState<Record<string, unknown>>();
  const sample = useMutation({
    mutationFn: () => call('adapters.sample', { query: { package: pkg, ...(name.trim() ? { name: name.trim() } : {}) } }),
    onSuccess: (answer) => {
      setConfig(answer.data);
      setSchema(answer.propertiesSchema ?? { properties: {} });
      if (!name.trim()) setName(answer.data.id);
    },
  });
  const create = useMutation({
    mutationFn: () => call('adapters.create', { body: { properties: { ...config!, id: name.trim() } } }),
    onSuccess: (answer) => {
      setConfig(undefined);
      void refreshAfter(client, 'adapters');
      window.location.hash = `#/adapters/${encodeURIComponent(answer.data.id)}`;
    },
  });
  const usable = packages.data?.results.filter((p) => !p.problem) ?? [];
  return (
    <section aria-label="New adapter instance" className="card">
      <h2>New adapter instance</h2>
      {packages.isError && <p className="error">Cannot list the adapter packages: {packages.error.message}</p>}
      {packages.data?.problems.map((p) => (
        <p key={p} className="warn">
          {p}
        </p>
      ))}
      {packages.data?.results
        .filter((p) => p.problem)
        .map((p) => (
          <p key={p.dir} className="warn">
            Package {p.name} cannot be used: {p.problem}
          </p>
        ))}
      <div className="health-controls">
        <label>
          Package{' '}
          <select aria-label="Package" value={pkg} onChange={(e) => (setPkg(e.target.value), setConfig(undefined))}>
            <option value="">choose…</option>
            {usable.map((p) => (
              <option key={p.name} value={p.name}>
                {p.title} ({p.name} {p.version}, {p.source})
              </option>
            ))}
          </select>
        </label>
        <label>
          Name <input aria-label="Instance name" value={name} onChange={(e) => setName(e.target.value)} placeholder="from the sample" />
        </label>
        <button type="button" disabled={!pkg || sample.isPending} onClick={() => sample.mutate()}>
          Start from the sample
        </button>
        <button type="button" disabled={packages.isFetching} onClick={() => void packages.refetch()}>
          {packages.isFetching ? 'Looking…' : 'Look for new packages'}
        </button>
      </div>
      {packages.data?.added && packages.data.added.length > 0 && (
        <p className="good" role="status">
          Found {packages.data.added.join(', ')}
        </p>
      )}
      {sample.isError && <p className="error">{sample.error.message}</p>}
      {config && schema && (
        <form
          aria-label="Adapter properties"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate();
          }}
        >
          <SchemaForm schema={schema} value={config.properties} errors={propertyErrors(create.error)} onChange={(properties) => setConfig({ ...config, properties })} />
          <button type="submit" disabled={create.isPending || !name.trim()}>
            Create and start
          </button>
          {create.isPending && <span className="spinner" aria-hidden />}
          {create.isError && (
            <Alert>
              {create.error.message}
            </Alert>
          )}
        </form>
      )}
    </section>
  );
}

export function ImportAdapter() {
  const client = useQueryClient();
  const imported = useMutation({
    mutationFn: async (file: File) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(await file.text());
      } catch (error) {
        throw new Error(`${file.name} is not JSON: ${(error as Error).message}`, { cause: error });
      }
      return call('adapters.import', { body: { properties: parsed as Record<string, unknown> } });
    },
    onSuccess: () => void refreshAfter(client, 'adapters'),
  });
  return (
    <section aria-label="Import an adapter" className="card">
      <h2>Import a service config</h2>
      <input type="file" accept="application/json,.json" aria-label="Service config file" onChange={(e) => e.target.files?.[0] && imported.mutate(e.target.files[0])} />
      {imported.isPending && <span className="spinner" aria-hidden />}
      {imported.isSuccess && <p className="good">{imported.data.message}</p>}
      {imported.isError && <p className="error">{imported.error.message}</p>}
    </section>
  );
}
