// A workflow document as a graph: one node per task, one edge per transition. The export's
// canvas positions are taken where they are usable: `nodeLocation` (pixels) on every task, or
// the older `x`/`y` (fractions of the designer's canvas) mapped into the same pixels where a
// task has only those; spread apart (uniformly, up to a limit) where the boxes drawn here
// would overlap. Otherwise dagre lays the graph out left to right. Boxes never overlap.
import dagre from '@dagrejs/dagre';

export interface DiagramTask {
  name?: string;
  summary?: string;
  app?: string;
  type?: string;
  x?: number;
  y?: number;
  nodeLocation?: { x?: number; y?: number };
  [key: string]: unknown;
}

export interface DiagramWorkflow {
  tasks: Record<string, DiagramTask>;
  transitions?: Record<string, Record<string, { type?: string; state?: string; [key: string]: unknown }>>;
}

export interface LaidNode {
  id: string;
  label: string;
  detail: string;
  /** Top-left corner. */
  x: number;
  y: number;
  width: number;
  height: number;
  boundary: boolean;
}

export interface LaidEdge {
  id: string;
  source: string;
  target: string;
  type: 'standard' | 'revert';
  state: string;
}

export const NODE_WIDTH = 190;
export const BOUNDARY_WIDTH = 80;
export const NODE_HEIGHT = 66;
/** The least space kept between two boxes. */
const GAP = 12;
/** How far an export's positions are spread apart before dagre is preferred. */
const MAX_SPREAD = 3;
// The older `x`/`y` are fractions of the designer's canvas; with nothing to calibrate them by, this size.
const CANVAS = { width: 1200, height: 600 };

const BOUNDARY = new Set(['workflow_start', 'workflow_end']);
type Point = { x: number; y: number };

const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const pixels = (task: DiagramTask): Point | undefined => (task.nodeLocation && num(task.nodeLocation.x) && num(task.nodeLocation.y) ? { x: task.nodeLocation.x, y: task.nodeLocation.y } : undefined);
const fraction = (task: DiagramTask): Point | undefined => (num(task.x) && num(task.y) ? { x: task.x, y: task.y } : undefined);

/** p = a·f + b by least squares over the pairs; undefined when the fractions do not vary. */
function fit(pairs: [number, number][]): { a: number; b: number } | undefined {
  const n = pairs.length;
  const mf = pairs.reduce((s, [f]) => s + f, 0) / n;
  const mp = pairs.reduce((s, [, p]) => s + p, 0) / n;
  const vf = pairs.reduce((s, [f]) => s + (f - mf) ** 2, 0);
  if (n < 2 || vf < 1e-9) return undefined;
  const a = pairs.reduce((s, [f, p]) => s + (f - mf) * (p - mp), 0) / vf;
  return a > 0 ? { a, b: mp - a * mf } : undefined;
}

/** Where the export puts each task's centre, in one space of pixels; undefined when it does not say for every task. */
function exportedCentres(ids: string[], tasks: Record<string, DiagramTask>): Map<string, Point> | undefined {
  const px = ids.map((id) => pixels(tasks[id]!));
  const fr = ids.map((id) => fraction(tasks[id]!));
  if (px.every(Boolean)) return new Map(ids.map((id, i) => [id, px[i]!]));
  if (!ids.every((_, i) => px[i] || fr[i])) return undefined;
  if (px.some(Boolean)) {
    // A mix: the fractions mapped onto the pixels by the tasks that carry both (never drawn in two spaces).
    const both = ids.flatMap((_, i) => (px[i] && fr[i] ? [{ p: px[i], f: fr[i] }] : []));
    const fx = fit(both.map(({ p, f }) => [f.x, p.x]));
    const fy = fit(both.map(({ p, f }) => [f.y, p.y])) ?? (fx && both.length ? { a: fx.a, b: both[0]!.p.y - fx.a * both[0]!.f.y } : undefined);
    if (!fx || !fy) return undefined;
    // Fractions that do not follow the pixels (beyond a box's size) are not a calibration.
    if (both.some(({ p, f }) => Math.abs(fx.a * f.x + fx.b - p.x) > NODE_WIDTH || Math.abs(fy.a * f.y + fy.b - p.y) > NODE_HEIGHT)) return undefined;
    return new Map(ids.map((id, i) => [id, px[i] ?? { x: fx.a * fr[i]!.x + fx.b, y: fy.a * fr[i]!.y + fy.b }]));
  }
  return new Map(ids.map((id, i) => [id, { x: fr[i]!.x * CANVAS.width, y: fr[i]!.y * CANVAS.height }]));
}

const widthOf = (id: string) => (BOUNDARY.has(id) ? BOUNDARY_WIDTH : NODE_WIDTH);

/** How much the centres must be spread apart (uniformly) so no two boxes overlap: 1 when none do, Infinity when two coincide. */
function spreadNeeded(centres: Map<string, Point>): number {
  const list = [...centres];
  let spread = 1;
  for (let i = 0; i < list.length; i++)
    for (let j = i + 1; j < list.length; j++) {
      const [a, p] = list[i]!;
      const [b, q] = list[j]!;
      const dx = Math.abs(p.x - q.x);
      const dy = Math.abs(p.y - q.y);
      const wx = (widthOf(a) + widthOf(b)) / 2 + GAP;
      const wy = NODE_HEIGHT + GAP;
      if (dx >= wx || dy >= wy) continue;
      spread = Math.max(spread, Math.min(dx > 0 ? wx / dx : Infinity, dy > 0 ? wy / dy : Infinity));
    }
  return spread;
}

/** Whether any two laid boxes overlap (the property every layout keeps). */
export function overlapping(nodes: readonly LaidNode[]): [string, string] | undefined {
  for (let i = 0; i < nodes.length; i++)
    for (let j = i + 1; j < nodes.length; j++) {
      const a = nodes[i]!;
      const b = nodes[j]!;
      if (a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height) return [a.id, b.id];
    }
  return undefined;
}

export function edgesOf(workflow: DiagramWorkflow): LaidEdge[] {
  const edges: LaidEdge[] = [];
  for (const [source, targets] of Object.entries(workflow.transitions ?? {})) {
    for (const [target, t] of Object.entries(targets ?? {})) {
      if (!t || typeof t !== 'object') continue;
      edges.push({ id: `${source}->${target}`, source, target, type: t.type === 'revert' ? 'revert' : 'standard', state: String(t.state ?? 'success') });
    }
  }
  return edges;
}

function automaticCentres(ids: string[], edges: LaidEdge[]): Map<string, Point> {
  const graph = new dagre.graphlib.Graph({ multigraph: true });
  graph.setGraph({ rankdir: 'LR', nodesep: 40, ranksep: 90 });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const id of ids) graph.setNode(id, { width: widthOf(id) + GAP, height: NODE_HEIGHT + GAP });
  // Revert edges point back; leaving them out of the ranking keeps the flow left to right.
  for (const edge of edges) if (edge.type === 'standard') graph.setEdge(edge.source, edge.target, {}, edge.id);
  dagre.layout(graph);
  return new Map(ids.map((id) => [id, { x: graph.node(id).x, y: graph.node(id).y }]));
}

export function layoutWorkflow(workflow: DiagramWorkflow): { nodes: LaidNode[]; edges: LaidEdge[]; positioned: 'canvas' | 'automatic' } {
  const tasks = workflow.tasks ?? {};
  const ids = Object.keys(tasks);
  const edges = edgesOf(workflow).filter((e) => ids.includes(e.source) && ids.includes(e.target));
  const label = (id: string) => (BOUNDARY.has(id) ? (id === 'workflow_start' ? 'start' : 'end') : tasks[id]!.summary || tasks[id]!.name || id);
  const detail = (id: string) => (BOUNDARY.has(id) ? '' : [tasks[id]!.app, tasks[id]!.name, id].filter(Boolean).join(' · '));
  const laid = (centres: Map<string, Point>, scale: number) =>
    ids.map((id) => {
      const c = centres.get(id)!;
      return { id, label: label(id), detail: detail(id), x: c.x * scale - widthOf(id) / 2, y: c.y * scale - NODE_HEIGHT / 2, width: widthOf(id), height: NODE_HEIGHT, boundary: BOUNDARY.has(id) };
    });
  const exported = ids.length > 0 ? exportedCentres(ids, tasks) : undefined;
  if (exported) {
    const spread = spreadNeeded(exported);
    if (spread <= MAX_SPREAD) {
      const nodes = laid(exported, spread);
      if (!overlapping(nodes)) return { nodes, edges, positioned: 'canvas' };
    }
  }
  return { nodes: laid(automaticCentres(ids, edges), 1), edges, positioned: 'automatic' };
}
