// The Transformations page (#/transformations): the JST documents of the active
// profile with a search, import from files, and one document's view with its
// Try it panel (#/transformations/<_id>).
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import { DeleteButton } from '../shell/DeleteButton';
import { useRoute } from '../shell/route';
import { ImportTransformations } from './ImportTransformations';
import { TransformationView } from './TransformationView';
import { qk, refreshAfter } from '../api/keys';

export const transformationHref = (id: string) => `#/transformations/${encodeURIComponent(id)}`;

function DeleteTransformation({ id, name }: { id: string; name: string }) {
  const queryClient = useQueryClient();
  return (
    <DeleteButton
      name={name}
      consequence="Workflows that run it will fail at that task."
      remove={() => call('transformations.delete', { params: { id } })}
      onDeleted={() => void refreshAfter(queryClient, 'transformations')}
    />
  );
}

function TransformationList() {
  const [search, setSearch] = useState('');
  const list = useQuery({
    queryKey: qk.transformations(search),
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
                  <DeleteTransformation id={t._id} name={t.name} />
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
  // The document named in `#/transformations/<_id>` (slashes typed unencoded kept in the id).
  const selected = useRoute().segments.slice(1).join('/');
  return selected ? <TransformationView key={selected} id={selected} /> : <TransformationList />;
}
