// What a workflow needs that the profile lacks: "Ready", or "Needs: Servicenow (2 tasks), ..."
// with each missing part by the name people know it by (a transformation by its task's summary,
// its id only as a detail), grouped by kind; past a few, the line says how many more.
import type { MissingPart } from '../../core/contract/workflows';

const KIND: Record<MissingPart['kind'], string> = {
  adapter: 'adapter instance',
  application: 'application',
  method: 'method',
  input: 'required input',
  workflow: 'child workflow',
  transformation: 'transformation (JST)',
};

/** The order parts are grouped in: what to install first (adapters), then the rest. */
export const KIND_ORDER: MissingPart['kind'][] = ['adapter', 'application', 'method', 'input', 'workflow', 'transformation'];

const tasks = (n: number) => `${n} task${n === 1 ? '' : 's'}`;

/** A part as people know it: a transformation by its name where known, its id otherwise. */
export const partName = (part: MissingPart) => part.title ?? part.name;

/** The parts of each kind, in KIND_ORDER, kinds with none left out. */
export function groupNeeds(needs: MissingPart[]): { kind: MissingPart['kind']; parts: MissingPart[] }[] {
  return KIND_ORDER.map((kind) => ({ kind, parts: needs.filter((part) => part.kind === kind) })).filter((group) => group.parts.length > 0);
}

/** How many parts the one-line summary names before "and N more". */
const SHOWN = 3;

export const needsLine = (needs: MissingPart[]) => {
  const ordered = groupNeeds(needs).flatMap((group) => group.parts);
  const named = ordered.slice(0, SHOWN).map((part) => `${partName(part)} (${tasks(part.tasks.length)})`).join(', ');
  return ordered.length > SHOWN ? `${named} and ${ordered.length - SHOWN} more` : named;
};

export function NeedsCell({ name, needs }: { name: string; needs: MissingPart[] }) {
  if (needs.length === 0) return <span className="good">Ready</span>;
  return (
    <details className="needs" aria-label={`What ${name} needs`}>
      <summary className="bad">Needs: {needsLine(needs)}</summary>
      <ul>
        {groupNeeds(needs).flatMap((group) =>
          group.parts.map((part) => (
            <li key={`${part.kind}:${part.name}`}>
              {KIND[part.kind]} <strong>{partName(part)}</strong>
              {part.title && <span className="muted small"> (id {part.name})</span>}, used by {tasks(part.tasks.length)}: {part.tasks.join(', ')}
            </li>
          )),
        )}
      </ul>
    </details>
  );
}
