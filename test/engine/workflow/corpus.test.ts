// Every workflow the service exported imports (the project's fixtures; the corpus of real exports
// when it is there); what each needs is exactly the adapters and applications its tasks use (this
// console has none of them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../../support/host';
import { corpus, fixtures, noteCorpusSkip } from '../../support/iap';

type Task = { name?: string; app?: string; variables?: { incoming?: Record<string, unknown> } };
type Summary = { name: string; needs: { kind: string; name: string; tasks: string[] }[] };

noteCorpusSkip('the real workflow exports');

describe.each([
  { source: fixtures, count: 4 },
  { source: corpus, count: 39 },
])('workflow exports $source.tag', ({ source, count }) => {
  let host: TestHost;
  beforeAll(async () => {
    if (source.present) host = await startTestHost();
  });
  afterAll(() => host?.dispose());
  const workflows = source.workflows();

  it.skipIf(!source.present)(`imports every workflow of the pre-builts (${count}), each kept as exported`, async () => {
    expect(workflows).toHaveLength(count);
    const refused: string[] = [];
    for (const { file, doc } of workflows) {
      const response = await host.api('/workflows', { method: 'POST', json: doc });
      if (response.status !== 201) refused.push(`${file}: ${response.status} ${await response.text()}`);
    }
    expect(refused).toEqual([]);
    const list = (await (await host.api('/workflows')).json()).items as Summary[];
    expect(list.map((w) => w.name).sort()).toEqual(workflows.map((w) => w.doc.name as string).sort());

    // Fields the console does not use are kept: the document reads back as exported.
    for (const { doc } of workflows) {
      const back = await (await host.api(`/workflows/${encodeURIComponent(doc.name as string)}`)).json();
      // `warnings` is the console's check, computed at each answer: none for these exports.
      const { lastUpdated: _u, warnings, ...rest } = back;
      expect(warnings, String(doc.name)).toEqual([]);
      expect(rest).toEqual(Object.fromEntries(Object.entries(doc).filter(([key]) => key !== '_id')));
    }
  });

  it.skipIf(!source.present)('lists as missing exactly the adapters and applications each workflow and its child workflows use, and the transformations they name', async () => {
    const list = (await (await host.api('/workflows')).json()).items as Summary[];
    const byName = new Map(workflows.map(({ doc }) => [String(doc.name), doc]));
    // MOP's reattempt and JsonForms' ShowJsonForm are the console's own tasks, as WorkFlowEngine's.
    const ownTask = (t: Task) => t.app === 'WorkFlowEngine' || (t.app === 'MOP' && t.name === 'reattempt') || (t.app === 'JsonForms' && t.name === 'ShowJsonForm');
    /** The tasks of a workflow and of every child workflow it starts (by name), at any depth. */
    const tasksOf = (name: string, seen = new Set<string>()): Task[] => {
      const doc = byName.get(name);
      if (!doc || seen.has(name)) return [];
      seen.add(name);
      const own = Object.values(doc.tasks as Record<string, Task>);
      const children = own.filter((t) => t.name === 'childJob').map((t) => t.variables?.incoming?.workflow).filter((w): w is string => typeof w === 'string');
      return [...own, ...children.flatMap((child) => tasksOf(child, seen))];
    };
    for (const { doc } of workflows) {
      const tasks = tasksOf(String(doc.name));
      const usedApps = new Set(tasks.filter((t) => !ownTask(t)).map((t) => t.app).filter((app): app is string => !!app));
      const usedJst = new Set(
        tasks.filter((t) => t.name === 'transformation').map((t) => t.variables?.incoming?.tr_id).filter((id): id is string => typeof id === 'string' && !id.startsWith('$var')),
      );
      const needs = list.find((w) => w.name === doc.name)!.needs;
      const neededApps = new Set(needs.filter((p) => ['adapter', 'application', 'method'].includes(p.kind)).map((p) => p.name.split('.')[0]!));
      neededApps.delete('WorkFlowEngine');
      expect([...neededApps].sort(), String(doc.name)).toEqual([...usedApps].sort());
      expect(needs.filter((p) => p.kind === 'transformation').map((p) => p.name).sort(), String(doc.name)).toEqual([...usedJst].sort());
      // Every child workflow the corpus names is in the corpus, so none is missing.
      expect(needs.filter((p) => p.kind === 'workflow'), String(doc.name)).toEqual([]);
    }
  });

  it.skipIf(!source.present)('imports the workflows inside the project file too (replacing the same names)', async () => {
    const [project] = source.projects();
    const components = (project!.doc.components as { type: string; document: Record<string, unknown> }[]).filter((c) => c.type === 'workflow');
    expect(components.length).toBeGreaterThan(0);
    for (const { document } of components) {
      const response = await host.api('/workflows?overwrite=true', { method: 'POST', json: document });
      expect(response.status, String(document.name)).toBe(201);
    }
  });
});
