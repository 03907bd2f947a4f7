// Workflow documents as graphs: canvas positions as exported, dagre otherwise, both
// transition types; and a job's overlay (status, iterations, the path taken).
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { layoutWorkflow } from '../../renderer/diagrams/layout';
import { jobOverlay } from '../../renderer/diagrams/JobDiagram';
import { corpus, fixtures, noteCorpusSkip } from '../support/iap';

noteCorpusSkip('the layout of every real workflow export');

const flow = {
  tasks: {
    workflow_start: { name: 'workflow_start' },
    workflow_end: { name: 'workflow_end' },
    check: { name: 'toUpperCase', summary: 'Check' },
    wait: { name: 'delay' },
  },
  transitions: {
    workflow_start: { check: { type: 'standard', state: 'success' } },
    check: { workflow_end: { type: 'standard', state: 'success' }, wait: { type: 'standard', state: 'failure' } },
    wait: { check: { type: 'revert', state: 'success' } },
  },
};

describe('workflow layout', () => {
  it('lays out a workflow without positions left to right, revert edges kept apart', () => {
    const { nodes, edges, positioned } = layoutWorkflow(flow);
    expect(positioned).toBe('automatic');
    const x = Object.fromEntries(nodes.map((n) => [n.id, n.x]));
    expect(x.workflow_start).toBeLessThan(x.check!);
    expect(x.check).toBeLessThan(x.wait!);
    expect(edges.find((e) => e.id === 'wait->check')).toMatchObject({ type: 'revert', state: 'success' });
    expect(edges.find((e) => e.id === 'check->wait')).toMatchObject({ type: 'standard', state: 'failure' });
    expect(nodes.find((n) => n.id === 'check')).toMatchObject({ label: 'Check', boundary: false });
  });

  it('keeps the canvas positions of the export: nodeLocation in pixels, else x/y fractions', () => {
    const placed = layoutWorkflow({
      tasks: { a: { name: 'a', nodeLocation: { x: 120, y: -36 }, x: 0.9, y: 0.9 }, b: { name: 'b', x: 0.5, y: 0.25 } },
      transitions: { a: { b: { type: 'standard', state: 'success' } } },
    });
    expect(placed.positioned).toBe('canvas');
    expect(placed.nodes.find((n) => n.id === 'a')).toMatchObject({ x: 120, y: -36 });
    expect(placed.nodes.find((n) => n.id === 'b')).toMatchObject({ x: 600, y: 150 });
  });

  for (const source of [fixtures, corpus]) it.skipIf(!source.present)(`draws every exported workflow ${source.tag}: a node per task, an edge per transition to a known task`, () => {
    const files = readdirSync(source.prebuiltsDir).flatMap((p) => {
      const dir = path.join(source.prebuiltsDir, p, 'bundles/workflows');
      return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => path.join(dir, f)) : [];
    });
    expect(files.length).toBeGreaterThan(0);
    let reverts = 0;
    for (const file of files) {
      const doc = JSON.parse(readFileSync(file, 'utf8'));
      const { nodes, edges } = layoutWorkflow(doc);
      expect(nodes.length, file).toBe(Object.keys(doc.tasks).length);
      const known = Object.values(doc.transitions as Record<string, Record<string, unknown>>).flatMap((t) => Object.keys(t)).filter((id) => id in doc.tasks);
      expect(edges.length, file).toBe(known.length);
      expect(nodes.every((n) => Number.isFinite(n.x) && Number.isFinite(n.y)), file).toBe(true);
      reverts += edges.filter((e) => e.type === 'revert').length;
    }
    expect(reverts).toBeGreaterThan(0);
  });
});

describe('job overlay', () => {
  const run = (taskId: string, iteration: number, status: string, finishState?: string) =>
    ({ _id: `j:${taskId}:${iteration}`, taskId, iteration, status, finishState, name: taskId, app: 'WorkFlowEngine', type: 'automatic', attempt: 1, queuedAt: 1, metrics: {} }) as never;

  it('shows the latest status and the iteration count of each task, and the transitions the job took', () => {
    const { overlay, taken } = jobOverlay({
      tasks: flow.tasks,
      transitions: flow.transitions,
      taskRuns: [
        run('workflow_start', 0, 'complete', 'success'),
        run('check', 0, 'complete', 'failure'),
        run('wait', 0, 'complete', 'success'),
        run('check', 1, 'complete', 'success'),
        run('workflow_end', 0, 'complete', 'success'),
      ],
    });
    expect(overlay.check).toEqual({ status: { word: 'complete', tone: 'good' }, iterations: 2 });
    expect(overlay.wait!.iterations).toBe(1);
    expect([...taken].sort()).toEqual(['check->wait', 'check->workflow_end', 'wait->check', 'workflow_start->check']);
  });

  it('a task that ended in failure reads "failure" in amber, never complete in green', () => {
    const { overlay, taken } = jobOverlay({ tasks: flow.tasks, transitions: flow.transitions, taskRuns: [run('workflow_start', 0, 'complete', 'success'), run('check', 0, 'complete', 'failure')] });
    expect(overlay.check!.status).toEqual({ word: 'failure', tone: 'warn' });
    expect(taken.has('check->workflow_end')).toBe(false);
  });
});
