// "Simulate what is missing": for a rehearsal without the devices, POST /adapters/simulate makes
// an instance for every adapter (or device-bound application method) the workflow calls and the
// profile lacks, and stand-ins for the transformations it names and the profile lacks.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import { Alert } from '../shell/Alert';
import { refreshAfter } from '../api/keys';

export function SimulateMissing({ workflows }: { workflows: string[] }) {
  const client = useQueryClient();
  const simulate = useMutation({
    mutationFn: () => call('adapters.simulate', { body: { workflows } }),
    onSuccess: () => {
      void refreshAfter(client, 'simulation');
    },
  });
  const made = simulate.data;
  return (
    <div className="simulate-missing">
      <button type="button" onClick={() => simulate.mutate()} disabled={simulate.isPending} title="Simulated instances answer by their rules, never a live system; each task they answer is marked SIMULATED">
        Simulate what is missing
      </button>
      {made && (
        <p className="good" role="status">
          {made.total === 0 && made.transformations.length === 0
            ? 'Nothing to simulate.'
            : `Made ${made.results.map((r) => `${r.id} (${r.mode === 'stub' ? 'its package in stub mode' : `simulated: ${r.methods.join(', ')}`})`).join('; ') || 'no adapter'}${made.transformations.length ? `; stand-in transformations ${made.transformations.join(', ')}` : ''}.`}{' '}
          <a href="#/adapters">Edit what they answer on the Adapters page</a>
        </p>
      )}
      {made && made.problems.length > 0 && <Alert>{made.problems.join('; ')}</Alert>}
      {simulate.isError && <Alert>{simulate.error.message}</Alert>}
    </div>
  );
}
