// What a workflow needs before a job of it can start, on its own page: each missing part
// (its child workflows' included), which tasks use it and what the operator does about it.
// Start is offered only when nothing is missing.
import type { MissingPart, StoredWorkflow } from '../../core/contract/workflows';
import { groupNeeds, partName } from './Needs';
import { SimulateMissing } from './SimulateMissing';
import { useWorkflowList } from './useWorkflowList';

/** The workflow's entry of the list (what it needs, its children's needs folded in); undefined while loading. */
export function useWorkflowNeeds(name: string): { needs: MissingPart[] | undefined; error?: string } {
  const list = useWorkflowList();
  const entry = list.data?.items.find((w) => w.name === name);
  return { needs: list.data ? (entry?.needs ?? []) : undefined, ...(list.isError ? { error: list.error.message } : {}) };
}

/** What the operator does to get the part. */
function whatToDo(part: MissingPart): { text: string; link?: { href: string; label: string } } {
  const [app = part.name] = part.name.split(/[.:]/);
  switch (part.kind) {
    case 'adapter':
      return {
        text: `Install an adapter package that provides ${part.name} in the profile's sdk_dir, then add an instance named ${part.name}.`,
        link: { href: '#/adapters', label: 'Go to the adapters' },
      };
    case 'application':
      return { text: `This console has no application ${part.name}: the task cannot run here until it does.` };
    case 'method':
      return { text: `${app} has no method ${part.name.slice(app.length + 1)}: install a version of ${app} that provides it.`, link: { href: '#/adapters', label: 'Go to the adapters' } };
    case 'input':
      return { text: "Give the task the input its adapter method requires (the method's pronghorn.json), then import the workflow again." };
    case 'workflow':
      return { text: `Import the workflow ${part.name} (a JSON file, or the pre-built or project that holds it).`, link: { href: '#/import', label: 'Go to the import page' } };
    case 'transformation':
      return { text: `Import the transformation ${partName(part)} (its JST document, or the pre-built that holds it).`, link: { href: '#/transformations', label: 'Go to the transformations' } };
  }
}


/** What the operator does to get the parts of one kind (said once for the group). */
function whatToDoAll(kind: MissingPart['kind']): { text: string; link?: { href: string; label: string } } {
  switch (kind) {
    case 'adapter':
      return { text: "Install an adapter package that provides each in the profile's sdk_dir, then add an instance of that name.", link: { href: '#/adapters', label: 'Go to the adapters' } };
    case 'application':
      return { text: 'This console has no such application: the tasks cannot run here until it does.' };
    case 'method':
      return { text: 'The application or adapter has no such method: install a version that provides it.', link: { href: '#/adapters', label: 'Go to the adapters' } };
    case 'input':
      return { text: "Give each task the input its adapter method requires (the method's pronghorn.json), then import the workflow again." };
    case 'workflow':
      return { text: 'Import each workflow (a JSON file, or the pre-built or project that holds it).', link: { href: '#/import', label: 'Go to the import page' } };
    case 'transformation':
      return { text: 'Import each transformation (its JST document, or the pre-built that holds it).', link: { href: '#/transformations', label: 'Go to the transformations' } };
  }
}

const KINDS: Record<MissingPart['kind'], [string, string]> = {
  adapter: ['Adapter', 'Adapters'],
  application: ['Application', 'Applications'],
  method: ['Method', 'Methods'],
  input: ['Required input', 'Required inputs'],
  workflow: ['Child workflow', 'Child workflows'],
  transformation: ['Transformation', 'Transformations'],
};

/** Parts of a kind listed before the rest fold under "Show N more". */
const SHOWN = 3;

/**
 * The tasks of this workflow to mark on its diagram: its own tasks named by a need, and the
 * childJob task that starts a child workflow whose tasks are (`Child: task`).
 */
export function flaggedTasks(workflow: StoredWorkflow, needs: MissingPart[]): Set<string> {
  const flagged = new Set<string>();
  const childTask = new Map<string, string>();
  for (const [id, task] of Object.entries(workflow.tasks)) {
    const child = task.name === 'childJob' ? task.variables?.incoming?.workflow : undefined;
    if (typeof child === 'string') childTask.set(child.replace(/^@[0-9a-fA-F]{24}: /, ''), id);
  }
  for (const part of needs)
    for (const task of part.tasks) {
      if (workflow.tasks[task]) flagged.add(task);
      else {
        const via = task.slice(0, task.indexOf(': '));
        const starter = childTask.get(via);
        if (starter) flagged.add(starter);
      }
    }
  return flagged;
}

/** A task as people know it: its summary (the designer's name for it) with its id, where the workflow has it. */
function taskName(workflow: StoredWorkflow | undefined, task: string): string {
  const summary = workflow?.tasks[task]?.summary;
  return typeof summary === 'string' && summary.trim() !== '' ? `${summary} (${task})` : task;
}

/** The tasks that use a part: the first few by name, then how many more (a widely used adapter is not a wall). */
function usedBy(workflow: StoredWorkflow | undefined, tasks: string[]): string {
  const named = tasks.slice(0, SHOWN).map((task) => taskName(workflow, task)).join(', ');
  return tasks.length > SHOWN ? `${named} and ${tasks.length - SHOWN} more tasks` : named;
}

function PartItem({ part, workflow }: { part: MissingPart; workflow?: StoredWorkflow }) {
  return (
    <li>
      <strong>{partName(part)}</strong>
      {part.title && <span className="muted small"> id {part.name}</span>}{' '}
      <span className="muted small">· used by {usedBy(workflow, part.tasks)}</span>
    </li>
  );
}

/** One kind of missing part: one part as it is, with what to do about it; several with what to do said once, the first few, the rest folded. */
function NeedsGroup({ kind, parts, workflow }: { kind: MissingPart['kind']; parts: MissingPart[]; workflow?: StoredWorkflow }) {
  const [one, many] = KINDS[kind];
  if (parts.length === 1) {
    const part = parts[0]!;
    const todo = whatToDo(part);
    return (
      <div className="needs-group" role="group" aria-label={`${one} missing`}>
        <strong>
          {one} {partName(part)}
        </strong>
        {part.title && <span className="muted small"> id {part.name}</span>}{' '}
        <span className="muted small">used by {usedBy(workflow, part.tasks)}</span>
        <div>
          {todo.text} {todo.link && <a href={todo.link.href}>{todo.link.label}</a>}
        </div>
      </div>
    );
  }
  const todo = whatToDoAll(kind);
  const rest = parts.slice(SHOWN);
  return (
    <div className="needs-group" role="group" aria-label={`${many} missing`}>
      <h3>
        {many} ({parts.length}){' '}
        <span className="muted small">
          {todo.text} {todo.link && <a href={todo.link.href}>{todo.link.label}</a>}
        </span>
      </h3>
      <ul>
        {parts.slice(0, SHOWN).map((part) => (
          <PartItem key={part.name} part={part} workflow={workflow} />
        ))}
      </ul>
      {rest.length > 0 && (
        <details>
          <summary>
            Show {rest.length} more {(rest.length === 1 ? one : many).toLowerCase()}
          </summary>
          <ul>
            {rest.map((part) => (
              <PartItem key={part.name} part={part} workflow={workflow} />
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

export function WorkflowNeedsPanel({ name, needs, workflow }: { name: string; needs: MissingPart[]; workflow?: StoredWorkflow }) {
  if (needs.length === 0) {
    return (
      <p className="good" aria-label={`State of ${name}`}>
        Ready: this workflow and every workflow it starts can run.
      </p>
    );
  }
  return (
    <section className="banner warn needs-panel" aria-label={`What ${name} needs`}>
      <h2>Cannot start yet: it needs {needs.length === 1 ? 'one part' : `${needs.length} parts`} this profile lacks</h2>
      {groupNeeds(needs).map((group) => (
        <NeedsGroup key={group.kind} kind={group.kind} parts={group.parts} workflow={workflow} />
      ))}
      {needs.some((part) => part.kind !== 'input' && part.kind !== 'workflow') && <SimulateMissing workflows={[name]} />}
    </section>
  );
}
