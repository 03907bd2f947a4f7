// The Transformations page (#/transformations): the JST documents of the active
// profile with a search, import from files, and one document's view with its
// Try it panel (#/transformations/<_id>).
import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import { ImportTransformations } from './ImportTransformations';
import { TransformationView } from './TransformationView';

function idFromHash(): string | null {
  const match = /^#\/transformations\/(.+)$/.exec(window.location.hash);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    // A hash typed by hand with a stray `%`: the id as written.
    return match[1]!;
  }
}

export const transformationHref = (id: string) => `#/transformations/${encodeURIComponent(id)}`;

function DeleteButton({ id, name }: { id: string; name: string }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => call('transformations.delete', { params: { id } }),
    onSuccess: () => {
      setConfirming(false);
      void queryClient.invalidateQueries({ queryKey: ['transformations.list'] });
    },
  });
  if (!confirming) {
    return (
      <button type="button" onClick={() => setConfirming(true)} aria-label={`Delete ${name}`}>
        Delete
      </button>
    );
  }
  return (
    <span role="group" aria-label={`Confirm deleting ${name}`} className="confirm">
      Delete “{name}”? Workflows that run it will fail at that task.{' '}
      <button type="button" className="danger" onClick={() => remove.mutate()} disabled={remove.isPending}>
        {remove.isPending ? 'Deleting…' : 'Yes, delete'}
      </button>{' '}
      <button type="button" onClick={() => setConfirming(false)} disabled={remove.isPending}>
        Cancel
      </button>
      {remove.isError && <span className="error"> Cannot delete: {remove.error.message}</span>}
    </span>
  );
}

function TransformationList() {
  const [search, setSearch] = useState('');
  const list = useQuery({
    queryKey: ['transformations.list', search],
    queryFn: () => call('transformations.list', { query: { contains: search || undefined } }),
  });
  return (
    <section className="transformations">
      <h1>Transformations</h1>
      <ImportTransformations />
      <h2>Transformations of the active profile</h2>
      <p>
        <label>
          Search <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="name or description" aria-label="Search transformations" />
        </label>
        {list.data && <span className="muted"> {list.data.total} found</span>}
      </p>
      {list.isPending && <p>Loading transformations…</p>}
      {list.isError && <p className="error">Cannot list transformations: {list.error.message}</p>}
      {list.data && list.data.results.length === 0 && (
        <p className="muted">{search ? `No transformation matches “${search}”.` : 'No transformations yet. Import JST files above.'}</p>
      )}
      {list.data && list.data.results.length > 0 && (
        <table aria-label="Transformations">
          <thead>
            <tr>
              <th>Name</th>
              <th>Description</th>
              <th>Incoming</th>
              <th>Outgoing</th>
              <th>Steps</th>
              <th>
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data.results.map((t) => (
              <tr key={t._id}>
                <td>
                  <a href={transformationHref(t._id)}>{t.name}</a>
                </td>
                <td>{t.description || <span className="muted">none</span>}</td>
                <td>{t.incoming.map((s) => s.$id).join(', ')}</td>
                <td>{t.outgoing.map((s) => s.$id).join(', ')}</td>
                <td>{t.steps.length}</td>
                <td>
                  <DeleteButton id={t._id} name={t.name} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function TransformationsPage() {
  const [selected, setSelected] = useState(idFromHash);
  useEffect(() => {
    const onHash = () => setSelected(idFromHash());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  return selected ? <TransformationView key={selected} id={selected} /> : <TransformationList />;
}
