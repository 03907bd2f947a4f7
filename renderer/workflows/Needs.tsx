// What a workflow needs that the profile lacks: "Ready", or "Needs: Servicenow (2 tasks), ..."
// with each missing part, what kind of part it is and which tasks use it.
import type { MissingPart } from '../../core/contract/workflows';

const KIND: Record<MissingPart['kind'], string> = {
  adapter: 'adapter instance',
  application: 'application',
  method: 'method',
  input: 'required input',
  workflow: 'child workflow',
  transformation: 'transformation (JST)',
};

const tasks = (n: number) => `${n} task${n === 1 ? '' : 's'}`;

export const needsLine = (needs: MissingPart[]) => needs.map((part) => `${part.name} (${tasks(part.tasks.length)})`).join(', ');

export function NeedsCell({ name, needs }: { name: string; needs: MissingPart[] }) {
  if (needs.length === 0) return <span className="good">Ready</span>;
  return (
    <details className="needs" aria-label={`What ${name} needs`}>
      <summary className="bad">Needs: {needsLine(needs)}</summary>
      <ul>
        {needs.map((part) => (
          <li key={`${part.kind}:${part.name}`}>
            {KIND[part.kind]} <code>{part.name}</code>, used by {tasks(part.tasks.length)}: {part.tasks.join(', ')}
          </li>
        ))}
      </ul>
    </details>
  );
}
