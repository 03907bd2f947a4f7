// The first run: a console with no workflow offers, in one click, the example pre-built shipped
// with it (imported), simulated instances for what it calls that the profile lacks, and a job
// of its example workflow started, so a newcomer sees a job run before importing anything of theirs.
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import { refreshAfter } from '../api/keys';
import { Alert } from '../shell/Alert';
import { useWorkflowList } from '../workflows/useWorkflowList';

/** The example workflow the first run starts, and the variables it is started with. */
export const EXAMPLE_WORKFLOW = 'Wait for Device Sync - Example';
const EXAMPLE_VARIABLES = { deviceName: 'edge-1' };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function importExample(say: (step: string) => void) {
  say('Importing the example pre-built…');
  let run = await call('projects.importExample');
  while (run.state === 'running') {
    await pause(300);
    run = await call('projects.importRun', { params: { id: run.id } });
    say(`Importing the example pre-built: ${run.done} of ${run.total}…`);
  }
  if (run.state === 'failed' || !run.summary) throw new Error(run.error ?? 'the import of the example stopped');
  const needy = run.summary.needs.map((w) => w.workflow);
  say('Simulating what it needs…');
  const simulated = needy.length ? await call('adapters.simulate', { body: { workflows: needy } }) : undefined;
  say(`Starting a job of ${EXAMPLE_WORKFLOW}…`);
  const started = await call('jobs.start', { body: { workflow: EXAMPLE_WORKFLOW, options: { description: 'First run of the example', variables: EXAMPLE_VARIABLES } } });
  return { imported: run.summary.counts.imported + run.summary.counts.replaced, simulated: simulated?.results.map((r) => r.id) ?? [], job: started.data._id };
}

export function FirstRun() {
  const client = useQueryClient();
  const workflows = useWorkflowList();
  const [step, setStep] = useState('');
  const go = useMutation({
    mutationFn: () => importExample(setStep),
    onSettled: () => {
      void refreshAfter(client, 'workflows', 'simulation', 'job');
    },
  });
  // Offered to an empty console only; once it has run, its outcome stays until the page is left.
  if (!go.data && !go.isPending && !go.isError && (!workflows.data || workflows.data.items.length > 0)) return null;
  return (
    <section className="banner first-run" aria-labelledby="first-run-title">
      <h2 id="first-run-title">New here? See a job run in a minute</h2>
      <p>
        This console has no workflow yet. Import the example pre-built shipped with it (four workflows, their transformations, a form and
        automations), simulate the adapters it calls that this profile lacks (they answer by rules, never a live system), and start a job of{' '}
        <em>{EXAMPLE_WORKFLOW}</em>: one click. Or <a href="#/import">bring a pre-built of your own</a>.
      </p>
      {!go.data && (
        <button type="button" className="primary" onClick={() => go.mutate()} disabled={go.isPending}>
          Import the example and run a job
        </button>
      )}
      {go.isPending && (
        <p role="status" className="muted">
          {step}
        </p>
      )}
      {go.data && (
        <p role="status" className="good">
          Imported {go.data.imported} parts of the example
          {go.data.simulated.length ? `, simulated ${go.data.simulated.join(', ')}` : ''} and started job{' '}
          <a href={`#/jobs/${encodeURIComponent(go.data.job)}`}>{go.data.job}</a> of {EXAMPLE_WORKFLOW}. Open it to watch it run; the{' '}
          <a href="#/workflows">Workflows</a> list has the rest of the example.
        </p>
      )}
      {go.isError && <Alert>Cannot run the example: {go.error.message}</Alert>}
    </section>
  );
}
