// A workflow document as a graph: one node per task, one edge per transition. Where
// the export carries canvas positions (`nodeLocation` in pixels, or the older `x`/`y`
// fractions of the canvas) every task is placed where its author put it; otherwise
// dagre lays the graph out left to right.
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
  x: number;
  y: number;
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
export const NODE_HEIGHT = 58;
// The older `x`/`y` are fractions of the designer's canvas.
const CANVAS = { width: 1200, height: 600 };

const BOUNDARY = new Set(['workflow_start', 'workflow_end']);

function canvasPosition(task: DiagramTask): { x: number; y: number } | undefined {
  const loc = task.nodeLocation;
  if (loc && typeof loc.x === 'number' && typeof loc.y === 'number') return { x: loc.x, y: loc.y };
  if (typeof task.x === 'number' && typeof task.y === 'number') return { x: task.x * CANVAS.width, y: task.y * CANVAS.height };
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

export function layoutWorkflow(workflow: DiagramWorkflow): { nodes: LaidNode[]; edges: LaidEdge[]; positioned: 'canvas' | 'automatic' } {
  const ids = Object.keys(workflow.tasks ?? {});
  const edges = edgesOf(workflow).filter((e) => ids.includes(e.source) && ids.includes(e.target));
  const label = (id: string) => {
    const task = workflow.tasks[id]!;
    if (BOUNDARY.has(id)) return id === 'workflow_start' ? 'start' : 'end';
    return task.summary || task.name || id;
  };
  const detail = (id: string) => {
    const task = workflow.tasks[id]!;
    return BOUNDARY.has(id) ? '' : [task.app, task.name, id].filter(Boolean).join(' · ');
  };
  const positions = ids.map((id) => canvasPosition(workflow.tasks[id]!));
  if (ids.length > 0 && positions.every(Boolean)) {
    return {
      nodes: ids.map((id, i) => ({ id, label: label(id), detail: detail(id), x: positions[i]!.x, y: positions[i]!.y, boundary: BOUNDARY.has(id) })),
      edges,
      positioned: 'canvas',
    };
  }
  const graph = new dagre.graphlib.Graph({ multigraph: true });
  graph.setGraph({ rankdir: 'LR', nodesep: 60, ranksep: 110 });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const id of ids) graph.setNode(id, { width: NODE_WIDTH, height: NODE_HEIGHT });
  // Revert edges point back; leaving them out of the ranking keeps the flow left to right.
  for (const edge of edges) if (edge.type === 'standard') graph.setEdge(edge.source, edge.target, {}, edge.id);
  dagre.layout(graph);
  return {
    nodes: ids.map((id) => {
      const n = graph.node(id);
      return { id, label: label(id), detail: detail(id), x: n.x - NODE_WIDTH / 2, y: n.y - NODE_HEIGHT / 2, boundary: BOUNDARY.has(id) };
    }),
    edges,
    positioned: 'automatic',
  };
}
