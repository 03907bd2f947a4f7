// Moving through a diagram by keyboard: the arrow keys go to the nearest task their way, Home and End
// to the first and last of the flow, and every task of a laid-out workflow is reached from the first.
import { describe, expect, it } from 'vitest';
import { nextNode } from '../../renderer/diagrams/keyboard';
import { layoutWorkflow } from '../../renderer/diagrams/layout';

const node = (id: string, x: number, y: number) => ({ id, label: id, detail: '', x, y, width: 190, height: 66, boundary: false });
// a → b → d along a row, c below b.
const nodes = [node('a', 0, 0), node('b', 300, 0), node('c', 300, 200), node('d', 600, 0)];

describe('diagram keys', () => {
  it('goes along the row with the side arrows and to the branch below with ArrowDown', () => {
    expect(nextNode(nodes, 'a', 'ArrowRight')).toBe('b');
    expect(nextNode(nodes, 'b', 'ArrowRight')).toBe('d');
    expect(nextNode(nodes, 'b', 'ArrowDown')).toBe('c');
    expect(nextNode(nodes, 'c', 'ArrowUp')).toBe('b');
    expect(nextNode(nodes, 'd', 'ArrowLeft')).toBe('b');
    expect(nextNode(nodes, 'd', 'ArrowRight')).toBeUndefined();
    expect(nextNode(nodes, 'c', 'Home')).toBe('a');
    expect(nextNode(nodes, 'a', 'End')).toBe('d');
    expect(nextNode(nodes, 'a', 'Enter')).toBeUndefined();
  });

  it('reaches every task of a laid-out chain with ArrowRight from the first', () => {
    const ids = Array.from({ length: 9 }, (_, i) => `t${i}`);
    const tasks = Object.fromEntries(ids.map((id) => [id, { name: 'toUpperCase' }]));
    const transitions = Object.fromEntries(ids.slice(0, -1).map((id, i) => [id, { [ids[i + 1]!]: { type: 'standard', state: 'success' } }]));
    const laid = layoutWorkflow({ tasks, transitions }).nodes;
    const seen = [nextNode(laid, undefined, 'Home')!];
    for (let next = nextNode(laid, seen[0], 'ArrowRight'); next; next = nextNode(laid, next, 'ArrowRight')) seen.push(next);
    expect(seen).toEqual(ids);
  });
});
