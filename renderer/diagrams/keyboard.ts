// Moving through a diagram by keyboard: the arrow keys go to the nearest task in their
// direction (the flow runs left to right), Home to the first task, End to the last.
import type { LaidNode } from './layout';

const centre = (n: LaidNode) => ({ x: n.x + n.width / 2, y: n.y + n.height / 2 });

/** The node the key moves to from `from`; undefined when there is none that way (or the key is not a move). */
export function nextNode(nodes: readonly LaidNode[], from: string | undefined, key: string): string | undefined {
  if (nodes.length === 0) return undefined;
  const byFlow = [...nodes].sort((a, b) => a.x - b.x || a.y - b.y);
  if (key === 'Home') return byFlow[0]!.id;
  if (key === 'End') return byFlow[byFlow.length - 1]!.id;
  const here = nodes.find((n) => n.id === from);
  if (!here) return ['ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowUp'].includes(key) ? byFlow[0]!.id : undefined;
  const c = centre(here);
  // Along the key's axis, ahead of here; nearest first, a step aside counting double.
  const ahead = (n: LaidNode): number | undefined => {
    const d = centre(n);
    const dx = d.x - c.x;
    const dy = d.y - c.y;
    const [along, aside] = key === 'ArrowRight' ? [dx, dy] : key === 'ArrowLeft' ? [-dx, dy] : key === 'ArrowDown' ? [dy, dx] : key === 'ArrowUp' ? [-dy, dx] : [0, 0];
    return along > 0 && Math.abs(aside) <= along * 3 + here.height ? along + 2 * Math.abs(aside) : undefined;
  };
  let best: { id: string; score: number } | undefined;
  for (const n of nodes) {
    if (n.id === here.id) continue;
    const score = ahead(n);
    if (score !== undefined && (!best || score < best.score)) best = { id: n.id, score };
  }
  return best?.id;
}
