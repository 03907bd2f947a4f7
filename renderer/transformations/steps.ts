// A document's steps as rows people read: what each step does (library.method,
// template, function) and, for the wiring, where a value comes from and goes.

export interface StepRow {
  id: string;
  kind: string;
  /** `Array.map`, `String.templateLiteral`, `function buildTag`, or empty for an assign. */
  what: string;
  /** Static arguments, or the template text. */
  detail: string;
  from: string;
  to: string;
}

type Endpoint = { location?: unknown; name?: unknown; ptr?: unknown; value?: unknown } | undefined;
type Step = Record<string, unknown> & { id?: unknown; type?: unknown };

export function endpointText(end: Endpoint): string {
  if (!end) return '';
  if (end.location === 'static') return `static ${JSON.stringify(end.value ?? end.name)}`;
  const ptr = typeof end.ptr === 'string' && end.ptr !== '' ? ` ${end.ptr}` : '';
  if (end.location === 'incoming' || end.location === 'outgoing') return `${String(end.location)} ${String(end.name)}${ptr}`;
  return `step ${String(end.name)}${ptr}`;
}

function argsText(args: unknown): string {
  if (!Array.isArray(args)) return '';
  return `(${args.map((a) => (a === null ? '·' : JSON.stringify(a))).join(', ')})`;
}

export function stepRows(steps: unknown): StepRow[] {
  if (!Array.isArray(steps)) return [];
  return (steps as Step[]).map((step) => {
    const id = String(step.id);
    const kind = String(step.type);
    if (kind === 'assign') return { id, kind, what: '', detail: '', from: endpointText(step.from as Endpoint), to: endpointText(step.to as Endpoint) };
    if (kind === 'function') return { id, kind, what: `function ${String(step.function)}`, detail: argsText(step.args), from: '', to: '' };
    if (kind === 'template') return { id, kind, what: `${String(step.library ?? 'String')}.${String(step.method ?? 'templateLiteral')}`, detail: String(step.template ?? ''), from: '', to: '' };
    return { id, kind, what: step.library ? `${String(step.library)}.${String(step.method)}` : '', detail: argsText(step.args), from: '', to: '' };
  });
}

/** Step ids in number order where they are numbers (the designer numbers them): 1, 4, 6, 9 rather than 9, 1, 4, 6. */
const byId = (a: string, b: string) => {
  const [x, y] = [Number(a), Number(b)];
  return Number.isFinite(x) && Number.isFinite(y) ? x - y : a.localeCompare(b);
};

/** The step an endpoint is (not incoming, outgoing or static), by id. */
const stepOf = (end: unknown): string | undefined => {
  if (!end || typeof end !== 'object') return undefined;
  const { location, name } = end as Endpoint & object;
  return location === 'incoming' || location === 'outgoing' || location === 'static' || name === undefined ? undefined : String(name);
};

/**
 * Steps that do something first, in the order they run (a step after the steps whose values
 * it is given; otherwise by id), then the wiring in the same order: from the incoming values
 * through the steps to the outgoing ones.
 */
export function orderedRows(steps: unknown): StepRow[] {
  const rows = stepRows(steps);
  const raw: Step[] = Array.isArray(steps) ? (steps as Step[]) : [];
  const doing = rows.filter((r) => r.kind !== 'assign');
  const feeds = new Map<string, Set<string>>(doing.map((r) => [r.id, new Set<string>()]));
  for (const step of raw) {
    if (step.type !== 'assign') continue;
    const from = stepOf(step.from);
    const to = stepOf(step.to);
    if (from && to && from !== to && feeds.has(to) && feeds.has(from)) feeds.get(to)?.add(from);
  }
  const rank = new Map<string, number>();
  const waiting = [...doing].sort((a, b) => byId(a.id, b.id));
  while (waiting.length > 0) {
    // The first (by id) whose inputs have all run; a cycle is broken by id.
    const ready = waiting.findIndex((r) => [...(feeds.get(r.id) ?? [])].every((id) => rank.has(id)));
    const [next] = waiting.splice(ready < 0 ? 0 : ready, 1);
    if (next) rank.set(next.id, rank.size);
  }
  const position = (end: unknown, edge: number) => {
    const id = stepOf(end);
    return id !== undefined ? (rank.get(id) ?? edge) : edge;
  };
  const wiring = raw
    .filter((step) => step.type === 'assign')
    .map((step) => ({ id: String(step.id), from: position(step.from, -1), to: position(step.to, rank.size) }))
    .sort((a, b) => a.from - b.from || a.to - b.to || byId(a.id, b.id));
  const rowById = new Map(rows.map((r) => [r.id, r]));
  return [
    ...[...doing].sort((a, b) => (rank.get(a.id) ?? 0) - (rank.get(b.id) ?? 0)),
    ...wiring.flatMap((w) => rowById.get(w.id) ?? []),
  ];
}
