// Where a diagram opens: the whole graph when it fits at a readable zoom; a job centred on its
// current or failed task; otherwise the start of the flow (workflow_start, fully in view).
import type { LaidNode } from './layout';

export interface Viewport {
  x: number;
  y: number;
  zoom: number;
}

export interface ViewOptions {
  minZoom: number;
  maxZoom: number;
  /** Pixels kept free around what is shown. */
  padding: number;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** The viewport (React Flow's: screen = position · zoom + x/y) for a pane of `size`, centred on `focus` when given. */
export function initialView(nodes: readonly LaidNode[], size: { width: number; height: number }, options: ViewOptions, focus?: string): Viewport {
  if (nodes.length === 0) return { x: 0, y: 0, zoom: 1 };
  const left = Math.min(...nodes.map((n) => n.x));
  const top = Math.min(...nodes.map((n) => n.y));
  const right = Math.max(...nodes.map((n) => n.x + n.width));
  const bottom = Math.max(...nodes.map((n) => n.y + n.height));
  const fitZoom = Math.min((size.width - 2 * options.padding) / (right - left), (size.height - 2 * options.padding) / (bottom - top));
  const centreOn = (cx: number, cy: number, zoom: number): Viewport => ({ x: size.width / 2 - cx * zoom, y: size.height / 2 - cy * zoom, zoom });
  const target = focus ? nodes.find((n) => n.id === focus) : undefined;
  if (target) return centreOn(target.x + target.width / 2, target.y + target.height / 2, clamp(fitZoom, options.minZoom, Math.min(1, options.maxZoom)));
  if (fitZoom >= options.minZoom) return centreOn((left + right) / 2, (top + bottom) / 2, Math.min(fitZoom, options.maxZoom));
  // Too large to show whole: the start of the flow, at the left edge, at the smallest readable zoom.
  const zoom = options.minZoom;
  const start = nodes.find((n) => n.id === 'workflow_start') ?? nodes.reduce((a, b) => (b.x < a.x ? b : a));
  return { x: options.padding - start.x * zoom, y: size.height / 2 - (start.y + start.height / 2) * zoom, zoom };
}
