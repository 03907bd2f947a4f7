// A workflow drawn as a graph (React Flow): tasks placed where the export put them, or
// laid out by dagre; standard transitions solid, revert transitions dashed and curved
// back, each labelled with its state. With an overlay (a job), each task shows its
// status and iteration count and the transitions the job took are drawn strong.
// The diagram is one Tab stop: the arrow keys move between its tasks (the view follows),
// Enter opens the one in focus.
import { memo, useCallback, useMemo, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { Background, Controls, Handle, MarkerType, MiniMap, Position, ReactFlow, type Edge, type Node, type NodeProps, type ReactFlowInstance } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import type { StatusWord } from '../shell/status';
import { toneClass } from '../shell/status';
import { nextNode } from './keyboard';
import { layoutWorkflow, type DiagramWorkflow } from './layout';
import { initialView } from './viewport';

export interface TaskOverlay {
  status: StatusWord;
  /** How many times the task ran (revert loops run it again). */
  iterations: number;
}

type TaskNodeData = { label: string; detail: string; boundary: boolean; overlay?: TaskOverlay; onOpen?: () => void; taskId: string; needs?: boolean; active: boolean };

const TaskNode = memo(function TaskNode({ data }: NodeProps<Node<TaskNodeData>>) {
  const { overlay } = data;
  // The name read out is the visible text, with the task id first.
  const body = (
    <>
      <span className="visually-hidden">Task {data.taskId}: </span>
      <span className="diagram-task-label">{data.label}</span>
      {data.detail && <span className="diagram-task-detail">{data.detail}</span>}
      {data.needs && <span className="diagram-task-needs">needs a missing part</span>}
      {overlay && (
        <span className="diagram-task-overlay">
          <span className={toneClass(overlay.status.tone)}>{overlay.status.word}</span>
          {overlay.iterations > 1 && (
            <span className="diagram-iterations">
              ×{overlay.iterations}
              <span className="visually-hidden"> iterations</span>
            </span>
          )}
        </span>
      )}
    </>
  );
  return (
    <div className={`diagram-task${data.boundary ? ' diagram-task--boundary' : ''}${overlay ? ` diagram-task--${overlay.status.tone}` : ''}${data.needs ? ' diagram-task--needs' : ''}`}>
      <Handle type="target" id="in" position={Position.Left} isConnectable={false} />
      {/* Revert transitions leave and enter underneath, so a loop back reads apart from the forward flow. */}
      <Handle type="target" id="revert-in" position={Position.Bottom} isConnectable={false} />
      <Handle type="source" id="revert-out" position={Position.Bottom} isConnectable={false} />
      {data.boundary ? (
        <div className="diagram-task-button">{body}</div>
      ) : data.onOpen ? (
        <button type="button" className="diagram-task-button nodrag" onClick={data.onOpen} tabIndex={data.active ? 0 : -1} data-task-id={data.taskId}>
          {body}
        </button>
      ) : (
        <div className="diagram-task-button" role="group" aria-label={`Task ${data.taskId}: ${data.label}`} tabIndex={data.active ? 0 : -1} data-task-id={data.taskId}>
          {body}
        </div>
      )}
      <Handle type="source" id="out" position={Position.Right} isConnectable={false} />
    </div>
  );
});

const nodeTypes = { task: TaskNode };

/** The smallest zoom: task labels stay about 7 px or more. */
const MIN_ZOOM = 0.55;
const VIEW = { minZoom: MIN_ZOOM, maxZoom: 1.2, padding: 24 };

/** The minimap's node colours: a job's task by its status tone, grey otherwise. */
const MINIMAP_FILL: Record<string, string> = { good: '#4ac26b', bad: '#cf222e', warn: '#bf8700', running: '#0969da' };

const STATE_COLOUR: Record<string, string> = { success: '#116329', error: '#a40e26', failure: '#7d4e00', loop: '#0a5cc2' };

export function WorkflowDiagram({
  workflow,
  overlay,
  taken,
  onTaskClick,
  flagged,
  label,
  height = 420,
  focus,
}: {
  /** The task to open centred on (a job's current or failed task). */
  focus?: string;
  /** Tasks to mark: they (or the child workflow they start) need a part the profile lacks. */
  flagged?: Set<string>;
  workflow: DiagramWorkflow;
  overlay?: Record<string, TaskOverlay>;
  /** Edge ids (`from->to`) the job took. */
  taken?: Set<string>;
  onTaskClick?: (taskId: string) => void;
  label: string;
  height?: number;
}) {
  const layout = useMemo(() => layoutWorkflow(workflow), [workflow]);
  const tasks = useMemo(() => layout.nodes.filter((n) => !n.boundary), [layout]);
  const [active, setActive] = useState<string | undefined>(focus);
  // The one task of the diagram in the Tab order: the last one moved to, else the focus, else the first of the flow.
  const tabStop = active && tasks.some((n) => n.id === active) ? active : (focus ?? nextNode(tasks, undefined, 'Home'));
  const pane = useRef<HTMLDivElement>(null);
  const flow = useRef<ReactFlowInstance<Node<TaskNodeData>, Edge>>(null);
  const nodes = useMemo<Node<TaskNodeData>[]>(
    () =>
      layout.nodes.map((n) => ({
        id: n.id,
        type: 'task',
        position: { x: n.x, y: n.y },
        // Sized as laid out: no overlap, and the minimap draws every node at once.
        width: n.width,
        height: n.height,
        data: { label: n.label, detail: n.detail, boundary: n.boundary, overlay: overlay?.[n.id], taskId: n.id, needs: flagged?.has(n.id), active: n.id === tabStop, onOpen: onTaskClick && !n.boundary ? () => onTaskClick(n.id) : undefined },
        draggable: false,
        connectable: false,
      })),
    [layout, overlay, onTaskClick, flagged, tabStop],
  );
  const show = useCallback(
    (id: string) => {
      const node = layout.nodes.find((n) => n.id === id);
      const instance = flow.current;
      if (!node || !instance) return;
      // Focus inside a transformed pane scrolls it; the view is moved by the viewport alone.
      const scroller = pane.current?.querySelector('.react-flow');
      if (scroller) scroller.scrollTop = scroller.scrollLeft = 0;
      const { x, y, zoom } = instance.getViewport();
      const size = pane.current?.getBoundingClientRect();
      const left = node.x * zoom + x;
      const top = node.y * zoom + y;
      const visible = size && left >= 0 && top >= 0 && left + node.width * zoom <= size.width && top + node.height * zoom <= size.height;
      if (!visible) void instance.setCenter(node.x + node.width / 2, node.y + node.height / 2, { zoom, duration: 150 });
    },
    [layout],
  );
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const from = (event.target as HTMLElement).dataset.taskId;
    if (from === undefined) return;
    const to = nextNode(tasks, from, event.key);
    if (!to || to === from) return;
    event.preventDefault();
    setActive(to);
    pane.current?.querySelector<HTMLElement>(`[data-task-id="${CSS.escape(to)}"]`)?.focus({ preventScroll: true });
    show(to);
  };
  const onFocus = (event: FocusEvent<HTMLDivElement>) => {
    const id = (event.target as HTMLElement).dataset.taskId;
    if (id !== undefined) show(id);
  };
  const edges = useMemo<Edge[]>(
    () =>
      layout.edges.map((e) => {
        const wasTaken = taken?.has(e.id);
        const dim = taken && !wasTaken;
        const colour = STATE_COLOUR[e.state] ?? '#57606a';
        return {
          id: e.id,
          source: e.source,
          target: e.target,
          type: e.type === 'revert' ? 'default' : 'smoothstep',
          ...(e.type === 'revert' ? { sourceHandle: 'revert-out', targetHandle: 'revert-in' } : { sourceHandle: 'out', targetHandle: 'in' }),
          label: e.type === 'revert' ? `revert · ${e.state}` : e.state,
          className: `diagram-edge diagram-edge--${e.type}${wasTaken ? ' diagram-edge--taken' : ''}${dim ? ' diagram-edge--dim' : ''}`,
          style: { stroke: colour, strokeWidth: wasTaken ? 3.5 : 1.5, strokeDasharray: e.type === 'revert' ? '6 4' : undefined, opacity: dim ? 0.45 : 1 },
          labelStyle: { fill: colour, fontWeight: wasTaken ? 700 : 400 },
          labelBgStyle: { fill: '#fff' },
          markerEnd: { type: MarkerType.ArrowClosed, color: colour },
          focusable: false,
        };
      }),
    [layout, taken],
  );
  return (
    <figure className="diagram" aria-label={label} style={{ height }}>
      {/* Arrow keys move between the tasks; the keys reach React Flow's pane otherwise. */}
      <div className="diagram-pane" ref={pane} onKeyDown={onKeyDown} onFocus={onFocus}>
        <ReactFlow
          nodes={nodes}
          edges={edges}
          nodeTypes={nodeTypes}
          // Labels stay readable: a large workflow is not shrunk below half size; it opens on its start (or the task in focus), pan and the minimap reach the rest.
          onInit={(instance) => {
            flow.current = instance;
            const size = pane.current?.getBoundingClientRect();
            if (size && size.width > 0) void instance.setViewport(initialView(layout.nodes, size, VIEW, focus));
          }}
          minZoom={MIN_ZOOM}
          disableKeyboardA11y
          nodesDraggable={false}
          nodesConnectable={false}
          nodesFocusable={false}
          edgesFocusable={false}
          elementsSelectable={false}
          proOptions={{ hideAttribution: true }}
          // A node handler makes the nodes take pointer events (the button inside answers the keyboard).
          onNodeClick={onTaskClick ? (_event, node) => node.type === 'task' && !node.data.boundary && onTaskClick(node.id) : undefined}
        >
          <Background />
          <Controls showInteractive={false} />
          {layout.nodes.length > 6 && (
            <MiniMap
              pannable
              zoomable
              ariaLabel={`Minimap of ${label}`}
              nodeColor={(node) => MINIMAP_FILL[(node.data as TaskNodeData).overlay?.status.tone ?? ''] ?? '#8c959f'}
              nodeClassName={(node) => ((node.data as TaskNodeData).needs ? 'minimap-needs' : '')}
            />
          )}
        </ReactFlow>
      </div>
      <figcaption className="muted small">
        {layout.nodes.length} tasks · {layout.positioned === 'canvas' ? 'placed as in the designer' : 'laid out automatically'} · solid: standard transition,
        dashed: revert{taken ? ' · strong: the path the job took' : ''}
        {flagged && flagged.size > 0 ? ` · marked: ${flagged.size} task${flagged.size === 1 ? '' : 's'} needing a missing part` : ''}
      </figcaption>
    </figure>
  );
}
