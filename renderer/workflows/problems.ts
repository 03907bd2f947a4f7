// Turns an import error into problems grouped by the task or transition they are about.
import type { WorkflowProblem } from '../../core/contract/workflows';
import { ApiError } from '../api/client';

export interface ProblemGroups {
  /** task id → messages */
  tasks: Map<string, string[]>;
  /** "src → dst" → messages */
  transitions: Map<string, string[]>;
  other: string[];
}

function add(map: Map<string, string[]>, key: string, message: string) {
  map.set(key, [...(map.get(key) ?? []), message]);
}

/** Problems from the server's semantic check, or from the shape check (`issues` with `body.` paths). */
export function problemsOf(error: unknown): WorkflowProblem[] {
  if (!(error instanceof ApiError)) return [{ path: '', message: error instanceof Error ? error.message : String(error) }];
  const body = error.body as typeof error.body & { problems?: WorkflowProblem[] };
  if (Array.isArray(body.problems)) return body.problems;
  if (body.issues?.length) {
    return body.issues.map((issue) => {
      const parts = issue.path.replace(/^body\.?/, '').split('.');
      const path = parts.join('.');
      if (parts[0] === 'tasks' && parts[1]) return { path, task: parts[1], message: `${path}: ${issue.message}` };
      if (parts[0] === 'transitions' && parts[1] && parts[2]) {
        return { path, transition: { src: parts[1], dst: parts[2] }, message: `${path}: ${issue.message}` };
      }
      return { path, message: path ? `${path}: ${issue.message}` : issue.message };
    });
  }
  return [{ path: '', message: error.message }];
}

export function groupProblems(problems: WorkflowProblem[]): ProblemGroups {
  const groups: ProblemGroups = { tasks: new Map(), transitions: new Map(), other: [] };
  for (const problem of problems) {
    if (problem.task) add(groups.tasks, problem.task, problem.message);
    else if (problem.transition) add(groups.transitions, `${problem.transition.src} → ${problem.transition.dst}`, problem.message);
    else groups.other.push(problem.message);
  }
  return groups;
}
