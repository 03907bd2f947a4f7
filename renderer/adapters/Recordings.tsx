// Recordings of real adapter instances' calls (secrets masked): record one for a number of calls
// or a time, list them, export one as a file, import a file, and make a simulated instance that
// replays a recording (the answer whose recorded arguments match the call best).
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import { Alert } from '../shell/Alert';
import { qk, refreshAfter } from '../api/keys';

/** On a real instance's page: record its next calls. */
export function RecordCalls({ name }: { name: string }) {
  const client = useQueryClient();
  const [calls, setCalls] = useState(100);
  const record = useMutation({
    mutationFn: () => call('adapters.record', { params: { name }, body: { calls, seconds: 3600 } }),
    onSuccess: () => void refreshAfter(client, 'recordings'),
  });
  return (
    <div className="health-actions">
      <label>
        Record the next
        <input type="number" min={1} max={100000} value={calls} onChange={(e) => setCalls(Number(e.target.value))} aria-label="Calls to record" />
        calls (within an hour)
      </label>
      <button type="button" onClick={() => record.mutate()} disabled={record.isPending}>
        Record calls
      </button>
      {record.isSuccess && <span className="good"> recording {record.data._id}</span>}
      {record.isError && <Alert>{record.error.message}</Alert>}
    </div>
  );
}

export function Recordings() {
  const client = useQueryClient();
  const list = useQuery({ queryKey: qk.recordings(), queryFn: () => call('adapters.recordings'), refetchInterval: 5000 });
  const refresh = () => {
    void refreshAfter(client, 'recordings');
  };
  const replay = useMutation({
    mutationFn: (input: { id: string; name?: string }) => call('adapters.simulateRecording', { params: { id: input.id }, body: input.name ? { name: input.name } : {} }),
    onSuccess: refresh,
  });
  const importFile = useMutation({
    mutationFn: async (file: File) => {
      const recording: unknown = JSON.parse(await file.text());
      if (typeof recording !== 'object' || recording === null || Array.isArray(recording)) throw new Error(`${file.name} is not an exported recording`);
      return call('adapters.importRecording', { body: { recording: Object.fromEntries(Object.entries(recording)) } });
    },
    onSuccess: refresh,
  });
  const exportOne = async (id: string) => {
    const recording = await call('adapters.recording', { params: { id } });
    const link = document.createElement('a');
    link.href = `data:application/json,${encodeURIComponent(JSON.stringify(recording, null, 2))}`;
    link.download = `${recording.adapter}-recording-${id}.json`;
    link.click();
  };
  return (
    <section aria-label="Recordings of adapter calls" className="card">
      <h2>Recordings of adapter calls</h2>
      {list.isError && <Alert>{list.error.message}</Alert>}
      {list.data && list.data.results.length === 0 && <p className="muted">None yet: record a real instance&apos;s calls from its page, or import a recording.</p>}
      {list.data && list.data.results.length > 0 && (
        <table aria-label="Recordings">
          <thead>
            <tr>
              <th>Adapter</th>
              <th>Started</th>
              <th>Calls</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {list.data.results.map((r) => (
              <tr key={r._id} aria-label={`recording ${r._id}`}>
                <td>
                  {r.adapter} <span className="muted small">{r.type}</span>
                </td>
                <td>{new Date(r.startedAt).toLocaleString()}</td>
                <td>
                  {r.callCount} {r.recording && <span className="badge running">recording</span>}
                </td>
                <td>
                  <button type="button" onClick={() => void exportOne(r._id)}>
                    Export
                  </button>{' '}
                  <button
                    type="button"
                    onClick={() => {
                      const name = window.prompt('Name of the simulated instance', `${r.adapter}-replay`);
                      if (name !== null) replay.mutate({ id: r._id, name: name.trim() || undefined });
                    }}
                  >
                    Make a simulated instance
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <label>
        Import a recording (JSON)
        <input type="file" accept=".json,application/json" onChange={(e) => e.target.files?.[0] && importFile.mutate(e.target.files[0])} />
      </label>
      {replay.isSuccess && <p className="good">{replay.data.message}</p>}
      {(replay.isError || importFile.isError) && <Alert>{(replay.error ?? importFile.error)?.message}</Alert>}
    </section>
  );
}
