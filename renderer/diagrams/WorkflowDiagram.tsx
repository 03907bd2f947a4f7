// A workflow drawn as a graph (React Flow): tasks placed where the export put them, or
// laid out by dagre; standard transitions solid, revert transitions dashed and curved
// back, each labelled with its state. With an overlay (a job), each task shows its
// status and iteration count and the transitions the job took are drawn strong.
import { memo, useMemo } from 'react';
import { Background, Controls, Handle, MarkerType, MiniMap, Position, ReactFlow, type Edge, type Node, type NodeProps } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import type { StatusWord } from '../shell/status';
import { toneClass } from '../shell/status';
import { layoutWorkflow, type DiagramWorkflow } from './layout';

export interface TaskOverlay {
  status: StatusWord;
  /** How many times the task ran (revert loops run it again). */
  iterations: number;
}

type TaskNodeData = { label: string; detail: string; boundary: boolean; overlay?: TaskOverlay; onOpen?: () => void; taskId: string; needs?: boolean };

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
      {data.onOpen ? (
        <button type="button" className="diagram-task-button nodrag" onClick={data.onOpen}>
          {body}
        </button>
      ) : (
        <div className="diagram-task-button">{body}</div>
      )}
      <Handle type="source" id="out" position={Position.Right} isConnectable={false} />
    </div>
  );
});

const nodeTypes = { task: TaskNode };

/** The smallest zoom: task labels stay about 7 px or more. */
const MIN_ZOOM = 0.55;

const STATE_COLOUR: Record<string, string> = { success: '#116329', error: '#a40e26', failure: '#7d4e00', loop: '#0a5cc2' };

export function WorkflowDiagram({
  workflow,
  overlay,
  taken,
  onTaskClick,
  flagged,
  label,
  height = 420,
}: {
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
  const nodes = useMemo<Node<TaskNodeData>[]>(
    () =>
      layout.nodes.map((n) => ({
        id: n.id,
        type: 'task',
        position: { x: n.x, y: n.y },
        data: { label: n.label, detail: n.detail, boundary: n.boundary, overlay: overlay?.[n.id], taskId: n.id, needs: flagged?.has(n.id), onOpen: onTaskClick && !n.boundary ? () => onTaskClick(n.id) : undefined },
        draggable: false,
        connectable: false,
      })),
    [layout, overlay, onTaskClick, flagged],
  );
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
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        fitView
        // Labels stay readable: a large workflow is not shrunk below half size; pan (drag) and the minimap reach the rest.
        fitViewOptions={{ padding: 0.15, maxZoom: 1.2, minZoom: MIN_ZOOM }}
        minZoom={MIN_ZOOM}
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
        {layout.nodes.length > 6 && <MiniMap pannable zoomable ariaLabel={`Minimap of ${label}`} nodeClassName={(node) => ((node.data as TaskNodeData).needs ? 'minimap-needs' : '')} />}
      </ReactFlow>
      <figcaption className="muted small">
        {layout.nodes.length} tasks · {layout.positioned === 'canvas' ? 'placed as in the designer' : 'laid out automatically'} · solid: standard transition,
        dashed: revert{taken ? ' · strong: the path the job took' : ''}
        {flagged && flagged.size > 0 ? ` · marked: ${flagged.size} task${flagged.size === 1 ? '' : 's'} needing a missing part` : ''}
      </figcaption>
    </figure>
  );
}
