// "Test connection" for a saved profile: connects to its store as saved, pings it,
// and says how long it took or what failed (the server never sends the password).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import { refreshAfter } from '../api/keys';

export function TestConnectionButton({ profileId }: { profileId: string }) {
  const queryClient = useQueryClient();
  const test = useMutation({
    mutationFn: () => call('store.testConnection', { params: { id: profileId } }),
    onSuccess: () => {
      // The active profile's store card and status bar may change with the answer.
      void refreshAfter(queryClient, 'store');
    },
  });
  return (
    <span className="test-connection">
      <button type="button" onClick={() => test.mutate()} disabled={test.isPending}>
        {test.isPending ? 'Testing…' : 'Test connection'}
      </button>{' '}
      <span role="status" aria-label={`Connection test of ${profileId}`}>
        {test.isPending && <span className="spinner" aria-hidden="true" />}
        {test.isError && <span className="error">Cannot test the connection: {test.error.message}</span>}
        {test.data?.ok && (
          <span className="good">
            Connected to {test.data.location}
            {test.data.latencyMs !== undefined ? ` in ${test.data.latencyMs} ms` : ''}
          </span>
        )}
        {test.data && !test.data.ok && <span className="error">Connection failed: {test.data.error}</span>}
      </span>
    </span>
  );
}
