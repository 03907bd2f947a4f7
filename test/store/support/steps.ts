// A workflow of `n` tasks in a row, each upper-casing the job's `text` and naming
// its step in its incoming `step`, so a worker can say which task it ran.
export function stepsWorkflow(name: string, n: number) {
  const tasks: Record<string, unknown> = { workflow_start: { name: 'workflow_start' }, workflow_end: { name: 'workflow_end' } };
  const transitions: Record<string, Record<string, { type: string; state: string }>> = {};
  let previous = 'workflow_start';
  for (let i = 1; i <= n; i++) {
    const id = `t${i}`;
    tasks[id] = {
      name: 'toUpperCase',
      app: 'WorkFlowEngine',
      type: 'automatic',
      variables: { incoming: { str: '$var.job.text', step: id }, outgoing: { uppercaseString: i === n ? '$var.job.result' : null } },
    };
    transitions[previous] = { [id]: { type: 'standard', state: 'success' } };
    previous = id;
  }
  transitions[previous] = { workflow_end: { type: 'standard', state: 'success' } };
  return { name, tasks, transitions };
}
