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

/** Steps that do something first (in the document's order), then the wiring. */
export function orderedRows(steps: unknown): StepRow[] {
  const rows = stepRows(steps);
  return [...rows.filter((r) => r.kind !== 'assign'), ...rows.filter((r) => r.kind === 'assign')];
}
