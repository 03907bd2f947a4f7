// One adapter instance: its properties form (PUT /adapters/:name/properties, which restarts a
// running instance), start/stop/restart, delete, export, its methods from pronghorn.json and its
// recent log lines.
import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import type { HealthItem } from '../../core/contract/health';
import type { ServiceConfig } from '../../core/contract/adapters';
import { LifecycleActions, StateBadges } from '../health/HealthTable';
import { SchemaForm } from './SchemaForm';
import { propertyErrors } from './NewAdapter';
import { Alert } from '../shell/Alert';
import { SimulationRules } from './SimulationRules';
import { packageLabel } from './package-label';
import { RecordCalls } from './Recordings';
import { qk, refreshAfter } from '../api/keys';

export function AdapterDetail({ name, health }: { name: string; health?: HealthItem }) {
  const client = useQueryClient();
  const detail = useQuery({ queryKey: qk.adapter(name), queryFn: () => call('adapters.get', { params: { name } }) });
  const [config, setConfig] = useState<ServiceConfig>();
  useEffect(() => {
    if (detail.data && !config) setConfig(detail.data.data);
  }, [detail.data, config]);
  const save = useMutation({
    mutationFn: () => call('adapters.update', { params: { name }, body: { properties: config! } }),
    onSuccess: (answer) => {
      setConfig(answer.data);
      void refreshAfter(client, 'adapters');
    },
  });
  const remove = useMutation({
    mutationFn: () => call('adapters.delete', { params: { name } }),
    onSuccess: () => {
      void refreshAfter(client, 'adapters');
      window.location.hash = '#/adapters';
    },
  });
  if (detail.isPending) return <p>Loading {name}…</p>;
  if (detail.isError) return <p className="error">Cannot read adapter {name}: {detail.error.message}</p>;
  const exportHref = `data:application/json,${encodeURIComponent(JSON.stringify(detail.data.data, null, 2))}`;
  return (
    <section aria-label={`Adapter ${name}`} className="card">
      <h2>
        {name} {health && <StateBadges item={health} />}
      </h2>
      <p className="muted">
        {packageLabel(detail.data.package)}
        {detail.data.problem && <span className="error"> · {detail.data.problem}</span>}
      </p>
      <div className="health-actions">
        {health && <LifecycleActions item={health} />}
        <a href={exportHref} download={`${name}.json`}>
          Export
        </a>
        <button type="button" onClick={() => window.confirm(`Delete adapter ${name} and its service config?`) && remove.mutate()}>
          Delete
        </button>
        {remove.isError && <span className="error">{remove.error.message}</span>}
      </div>
      {config && config.simulation === undefined && <RecordCalls name={name} />}
      {config?.simulation !== undefined && <SimulationRules name={name} config={config} onSaved={setConfig} />}
      {config && config.simulation === undefined && (
        <form
          aria-label="Adapter properties"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate();
          }}
        >
          <SchemaForm schema={detail.data.propertiesSchema ?? { properties: {} }} value={config.properties} errors={propertyErrors(save.error)} onChange={(properties) => setConfig({ ...config, properties })} />
          <button type="submit" disabled={save.isPending}>
            Save properties
          </button>
          {save.isPending && <span className="spinner" aria-hidden />}
          {save.isSuccess && <span className="good"> {save.data.message}</span>}
          {save.isError && (
            <Alert>
              {save.error.message}
            </Alert>
          )}
        </form>
      )}
      <details>
        <summary>{detail.data.methods.length} methods (pronghorn.json)</summary>
        <table aria-label="Methods">
          <thead>
            <tr>
              <th>Method</th>
              <th>Inputs (in call order)</th>
              <th>Summary</th>
            </tr>
          </thead>
          <tbody>
            {detail.data.methods.map((m) => (
              <tr key={m.name}>
                <td>
                  <code>{m.name}</code>
                  {m.task === false && <span className="muted small"> (not a task)</span>}
                </td>
                <td>{m.input.map((i) => `${i.name}${i.required ? '' : '?'}${i.type ? `: ${i.type}` : ''}`).join(', ') || '—'}</td>
                <td>{m.summary ?? m.description ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
      <details>
        <summary>Recent log ({detail.data.logs.length} lines)</summary>
        <pre className="adapter-log">{detail.data.logs.map((l) => `${l.at} ${l.level}: ${l.message}`).join('\n') || 'nothing logged yet'}</pre>
      </details>
    </section>
  );
}
