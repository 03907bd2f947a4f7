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
import { Table, type Column } from '../components/Table';
import { SearchBox } from '../components/SearchBox';
import type { Transformation } from '../../core/contract/transformations';
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

type Row = Transformation & { _id: string };

const COLUMNS: Column<Row>[] = [
  { id: 'name', header: 'Name', sortValue: (t) => t.name, cell: (t) => <a href={transformationHref(t._id)}>{t.name}</a> },
  { id: 'description', header: 'Description', cell: (t) => t.description || <span className="muted">none</span> },
  { id: 'incoming', header: 'Incoming', cell: (t) => t.incoming.map((schema) => schema.$id).join(', ') },
  { id: 'outgoing', header: 'Outgoing', cell: (t) => t.outgoing.map((schema) => schema.$id).join(', ') },
  { id: 'steps', header: 'Steps', sortValue: (t) => t.steps.length, cell: (t) => t.steps.length },
  { id: 'actions', header: <span className="visually-hidden">Actions</span>, cell: (t) => <DeleteTransformation id={t._id} name={t.name} /> },
];

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
      <SearchBox label="Search transformations" value={search} onChange={setSearch} placeholder="name or description" status={list.data ? `${list.data.total} found` : undefined} />
      {list.isPending && <p>Loading transformations…</p>}
      {list.isError && <p className="error">Cannot list transformations: {list.error.message}</p>}
      {list.data && (
        <Table
          label="Transformations"
          rows={list.data.results}
          columns={COLUMNS}
          rowKey={(t) => t._id}
          initialSort={{ column: 'name', order: 'asc' }}
          pageSize={100}
          empty={search ? `No transformation matches “${search}”.` : 'No transformations yet. Import JST files above.'}
        />
      )}
    </section>
  );
}

export function TransformationsPage() {
  // The document named in `#/transformations/<_id>` (slashes typed unencoded kept in the id).
  const selected = useRoute().segments.slice(1).join('/');
  return selected ? <TransformationView key={selected} id={selected} /> : <TransformationList />;
}
