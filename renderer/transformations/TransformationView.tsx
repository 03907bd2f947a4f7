// One transformation: its incoming and outgoing schemas, its steps as a readable
// list, and the Try it panel (the step a failed run names is marked in the list).
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { StoredTransformation } from '../../core/contract/transformations';
import { call } from '../api/client';
import { orderedRows } from './steps';
import { TryIt } from './TryIt';
import { qk } from '../api/keys';

type Schema = Record<string, unknown> & { $id: string; type?: unknown };

function Schemas({ title, schemas }: { title: string; schemas: Schema[] }) {
  return (
    <div>
      <h2>{title}</h2>
      {schemas.length === 0 ? (
        <p className="muted">none</p>
      ) : (
        <ul aria-label={title}>
          {schemas.map((s) => (
            <li key={s.$id}>
              <details>
                <summary>
                  <code>{s.$id}</code> <span className="muted">{Array.isArray(s.type) ? s.type.join(' | ') : String(s.type ?? 'any')}</span>
                </summary>
                <pre className="json">{JSON.stringify(s, null, 2)}</pre>
              </details>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Steps({ doc, failedStep, functionName }: { doc: { steps?: unknown; functions?: unknown }; failedStep: string | null; functionName?: string }) {
  const rows = orderedRows(doc.steps);
  return (
    <table aria-label={functionName ? `Steps of function ${functionName}` : 'Steps'} className="steps">
      <thead>
        <tr>
          <th>Step</th>
          <th>Type</th>
          <th>Library.method</th>
          <th>Arguments / template</th>
          <th>From → To</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.id} className={!functionName && failedStep === r.id ? 'failed-step' : undefined} aria-current={!functionName && failedStep === r.id ? 'step' : undefined}>
            <td>{r.id}</td>
            <td>{r.kind}</td>
            <td>{r.what}</td>
            <td className="detail">{r.detail}</td>
            <td>{r.kind === 'assign' ? `${r.from} → ${r.to}` : ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function TransformationView({ id }: { id: string }) {
  const [failedStep, setFailedStep] = useState<string | null>(null);
  const query = useQuery({ queryKey: qk.transformation(id), queryFn: () => call('transformations.get', { params: { id } }) });
  if (query.isPending) return <p>Loading transformation…</p>;
  if (query.isError) return <p className="error">Cannot show transformation {id}: {query.error.message}</p>;
  const doc: StoredTransformation = query.data;
  const functions = (doc.functions ?? []) as (Record<string, unknown> & { name?: string; steps?: unknown })[];
  return (
    <section className="transformations">
      <p>
        <a href="#/transformations">← Transformations</a>
      </p>
      <h1>{doc.name}</h1>
      <p className="muted">
        _id <code>{doc._id}</code>
        {doc.description ? ` · ${doc.description}` : ''}
      </p>
      <div className="schemas">
        <Schemas title="Incoming" schemas={doc.incoming} />
        <Schemas title="Outgoing" schemas={doc.outgoing} />
      </div>
      <TryIt doc={doc} onFailedStep={setFailedStep} />
      <h2>Steps</h2>
      <Steps doc={doc} failedStep={failedStep} />
      {functions.map((fn, i) => (
        <details key={String(fn.name ?? i)}>
          <summary>Function {String(fn.name ?? i)}</summary>
          <Steps doc={fn} failedStep={failedStep} functionName={String(fn.name ?? i)} />
        </details>
      ))}
    </section>
  );
}
