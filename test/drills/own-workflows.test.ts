// A lab drill of the operator's own workflow instead of the ledger workflow: the project's fixture
// "Update Change Request - Example" (a JST transformation, then Servicenow.updateChangeRequest, an
// adapter the lab lacks) copied into the lab, Servicenow simulated, 8 jobs, kill -9 of the active.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLabDrill } from '../../core/drills/run';
import type { WorkflowSource } from '../../core/drills/own-workflows';
import type { DrillReport } from '../../core/drills/types';
import { sharedDatabase } from './support';

const BUNDLES = path.resolve(import.meta.dirname, '../fixtures/iap/prebuilts/Instance-Check-Example/bundles');
const WORKFLOW = 'Update Change Request - Example';

function readAll(kind: string): Record<string, unknown>[] {
  return readdirSync(path.join(BUNDLES, kind)).map((f) => JSON.parse(readFileSync(path.join(BUNDLES, kind, f), 'utf8')));
}

/** The fixture's workflows and transformations, as the console the drill runs on would answer them. */
const fixtureSource: WorkflowSource = {
  workflow: async (name) => readAll('workflows').find((w) => w.name === name),
  transformation: async (id) => readAll('transformations').find((t) => t._id === id),
};

const database = await sharedDatabase();
if ('unavailable' in database) console.warn(`[lab drill, own workflows] skipped: ${database.unavailable}`);

describe.skipIf('unavailable' in database)('a lab drill of a fixture workflow on a simulated instance', () => {
  const mongo = 'mongo' in database ? database.mongo : undefined;
  let report: DrillReport;
  beforeAll(async () => {
    report = await runLabDrill({ jobs: 8, failure: 'kill', failback: false, workflows: [WORKFLOW],
      // The change request the transformation reads (its incoming schema's examples); the Servicenow instance is found by its app name.
      variables: { [WORKFLOW]: { changeRequest: { response: [{ id: 'chg-1', current_state: '1' }] }, comments: 'drilled', state: 'Closed' } },
      source: fixtureSource, mongoUrl: mongo?.url });
  }, 300_000);
  afterAll(async () => {
    await mongo?.stop();
  });

  it('copies the workflow and its transformation into the lab and simulates the adapter it lacks', () => {
    const prepare = report.steps.find((s) => s.name.startsWith('Prepare both sites'));
    expect(prepare?.error).toBeUndefined();
    expect(prepare?.detail).toContain(`1 workflows ("${WORKFLOW}") and 1 transformations copied`);
    expect(prepare?.detail).toMatch(/simulated: Servicenow \(simulated\) on active/);
    expect(report.readiness.filter((i) => i.state === 'fail')).toEqual([]);
  });

  it('starts its jobs from the chosen workflow, every job ends, no task record completed twice', () => {
    expect(report.error).toBeUndefined();
    expect(report.status).toBe('done');
    expect(report.steps.map((s) => s.name)).toContain(`Load: 8 jobs of "${WORKFLOW}" (round-robin, on simulated instances)`);
    expect(report.jobs).toBe(8);
    expect(report.jobsCompleted).toBe(8);
    expect(report.tasksLost).toBe(0);
    expect(report.taskRecordsCompletedTwice).toBe(0);
  });

  it('counts the calls per simulated instance and method', () => {
    // One updateChangeRequest per job; a call in flight at the kill may have been answered twice.
    expect(report.simulatedCalls?.map((c) => [c.instance, c.method])).toEqual([['Servicenow', 'updateChangeRequest']]);
    expect(report.simulatedCalls?.[0]?.calls).toBeGreaterThanOrEqual(8);
    expect(report.sideEffects).toBe(report.simulatedCalls?.[0]?.calls);
  });
});
