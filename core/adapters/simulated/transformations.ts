// Stand-in transformations: a pre-built that references JST documents by id without exporting
// them (F5 BIG-IQ's workflows do) cannot start. For a rehearsal, each missing `tr_id` gets a JST
// with the task's incoming (variableMap keys) and outgoing names and no steps, marked simulated;
// importing the real document replaces it (same _id).
import { simulationNeedsOfTransformations } from './needs';
import type { WorkflowTasks } from './needs';

export interface TransformationPort {
  has(id: string): Promise<boolean>;
  create(doc: Record<string, unknown>): Promise<unknown>;
}

export async function simulateTransformations(workflows: readonly WorkflowTasks[], port: TransformationPort): Promise<{ created: string[]; problems: string[] }> {
  const created: string[] = [];
  const problems: string[] = [];
  for (const need of simulationNeedsOfTransformations(workflows)) {
    if (await port.has(need.id)) continue;
    const doc = {
      _id: need.id,
      name: `Simulated ${need.id}`,
      description: `Stand-in made by "Simulate what is missing" for ${[...need.workflows].join(', ')}: no steps, so its outgoing values are empty. Import the real transformation to replace it.`,
      simulated: true,
      incoming: [...need.incoming].map((name) => ({ $id: name, type: ['object', 'array', 'string', 'number', 'boolean', 'null'] })),
      outgoing: [...need.outgoing].map((name) => ({ $id: name, type: ['object', 'array', 'string', 'number', 'boolean', 'null'] })),
      steps: [],
      functions: [],
    };
    try {
      await port.create(doc);
      created.push(need.id);
    } catch (error) {
      problems.push(`transformation ${need.id}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { created, problems };
}
