// Workflow documents as graphs: canvas positions as exported, dagre otherwise, both
// transition types; and a job's overlay (status, iterations, the path taken).
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { layoutWorkflow, overlapping, type DiagramWorkflow, type LaidNode } from '../../renderer/diagrams/layout';
import { initialView } from '../../renderer/diagrams/viewport';
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

  it('keeps the canvas positions of the export: nodeLocation in pixels on every task', () => {
    const placed = layoutWorkflow({
      tasks: { a: { name: 'a', nodeLocation: { x: 120, y: -36 }, x: 0.9, y: 0.9 }, b: { name: 'b', nodeLocation: { x: 480, y: -36 } } },
      transitions: { a: { b: { type: 'standard', state: 'success' } } },
    });
    expect(placed.positioned).toBe('canvas');
    const centre = (id: string) => placed.nodes.find((n) => n.id === id)!;
    expect(centre('a').x + centre('a').width / 2).toBe(120);
    expect(centre('b').x + centre('b').width / 2).toBe(480);
  });

  it('maps a task that has only x/y fractions onto the pixels of the tasks that carry both, never drawing two spaces mixed', () => {
    const placed = layoutWorkflow({
      tasks: {
        a: { name: 'a', nodeLocation: { x: 0, y: 1000 }, x: 0, y: 0.5 },
        b: { name: 'b', nodeLocation: { x: 1000, y: 1000 }, x: 0.5, y: 0.5 },
        c: { name: 'c', x: 1, y: 0.5 },
      },
    });
    expect(placed.positioned).toBe('canvas');
    const c = placed.nodes.find((n) => n.id === 'c')!;
    expect(c.x + c.width / 2).toBeCloseTo(2000);
    expect(c.y + c.height / 2).toBeCloseTo(1000);
  });

  it('spreads positions that would overlap, and lays out automatically where tasks sit on each other', () => {
    const close = layoutWorkflow({ tasks: { a: { name: 'a', nodeLocation: { x: 0, y: 0 } }, b: { name: 'b', nodeLocation: { x: 150, y: 0 } } } });
    expect(close.positioned).toBe('canvas');
    expect(overlapping(close.nodes)).toBeUndefined();
    const piled = layoutWorkflow({ tasks: { a: { name: 'a', x: 0.5, y: 0.5 }, b: { name: 'b', x: 0.5, y: 0.5 } } });
    expect(piled.positioned).toBe('automatic');
    expect(overlapping(piled.nodes)).toBeUndefined();
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

/** The same export as the designer saves it, and as older or stripped exports carry its positions. */
const variants = (doc: DiagramWorkflow): [string, DiagramWorkflow][] => {
  const strip = (keep: (task: Record<string, unknown>, i: number) => Record<string, unknown>) => ({ ...doc, tasks: Object.fromEntries(Object.entries(doc.tasks).map(([id, t], i) => [id, keep(t, i)])) });
  return [
    ['as exported', doc],
    ['x/y fractions only', strip(({ nodeLocation: _n, ...t }) => t)],
    ['nodeLocation on every other task', strip((t, i) => (i % 2 ? (({ nodeLocation: _n, ...rest }) => rest)(t) : t))],
    ['no positions', strip(({ nodeLocation: _n, x: _x, y: _y, ...t }) => t)],
  ];
};

const inView = (node: LaidNode, view: { x: number; y: number; zoom: number }, size: { width: number; height: number }) => {
  const left = node.x * view.zoom + view.x;
  const top = node.y * view.zoom + view.y;
  return left >= 0 && top >= 0 && left + node.width * view.zoom <= size.width && top + node.height * view.zoom <= size.height;
};

describe('layout of real exports', () => {
  const options = { minZoom: 0.55, maxZoom: 1.2, padding: 24 };
  for (const source of [fixtures, corpus])
    it.skipIf(!source.present)(`no two tasks overlap and the start is fully in view, however the positions come ${source.tag}`, () => {
      const files = source.workflows();
      expect(files.length).toBeGreaterThan(0);
      const modes = new Set<string>();
      for (const { file, doc } of files)
        for (const [how, variant] of variants(doc as unknown as DiagramWorkflow)) {
          const { nodes, positioned } = layoutWorkflow(variant);
          modes.add(positioned);
          expect(overlapping(nodes), `${file} (${how})`).toBeUndefined();
          for (const size of [{ width: 1100, height: 420 }, { width: 640, height: 420 }]) {
            const view = initialView(nodes, size, options);
            const start = nodes.find((n) => n.id === 'workflow_start')!;
            expect(inView(start, view, size), `${file} (${how}) at ${size.width} px`).toBe(true);
            // A job opens centred on the task it is at: fully in view too.
            const last = nodes[nodes.length - 1]!;
            expect(inView(last, initialView(nodes, size, options, last.id), size), `${file} (${how}) centred on ${last.id}`).toBe(true);
          }
        }
      expect([...modes].sort()).toEqual(['automatic', 'canvas']);
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
