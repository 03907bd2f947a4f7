// Pre-built folders and project exports imported in one step, over the API: the project's own
// pre-built (test/fixtures/iap) and the real exports in ../shared/corpus/iap (read at run time,
// when they are there).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';
import { corpus, fixtures, noteCorpusSkip, type IapSource } from '../support/iap';
import type { ImportRun, ImportSummary } from '../../core/contract/projects';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host?.dispose());

/** The JSON files of a folder as the UI sends them: paths start with the folder's own name. */
function folderFiles(dir: string) {
  const out: { path: string; content: unknown }[] = [];
  const walk = (rel: string) => {
    for (const name of readdirSync(path.join(dir, rel))) {
      const relative = rel ? `${rel}/${name}` : name;
      if (statSync(path.join(dir, relative)).isDirectory()) walk(relative);
      else if (name.endsWith('.json')) out.push({ path: `${path.basename(dir)}/${relative}`, content: JSON.parse(readFileSync(path.join(dir, relative), 'utf8')) });
    }
  };
  walk('');
  return out;
}

async function finished(start: Response): Promise<ImportSummary> {
  expect(start.status).toBe(202);
  let run = (await start.json()) as ImportRun;
  for (let i = 0; i < 400 && run.state === 'running'; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    run = (await (await host.api(`/projects/imports/${run.id}`)).json()) as ImportRun;
  }
  expect(run.error).toBeUndefined();
  expect(run.state).toBe('done');
  expect(run.done).toBe(run.total);
  return run.summary!;
}

const byCollection = (summary: ImportSummary, outcome: string) => {
  const counts: Record<string, number> = {};
  for (const item of summary.items) if (item.outcome === outcome) counts[item.collection!] = (counts[item.collection!] ?? 0) + 1;
  return counts;
};

type Task = { app?: string; name?: string };
// MOP's reattempt and JsonForms' ShowJsonForm are the console's own tasks, as WorkFlowEngine's.
const ownTask = (t: Task) => t.app === 'WorkFlowEngine' || (t.app === 'MOP' && t.name === 'reattempt') || (t.app === 'JsonForms' && t.name === 'ShowJsonForm');

noteCorpusSkip('importing the real pre-builts');

interface Expected {
  source: IapSource;
  /** The pre-built with every kind of artifact, and its bundle name. */
  full: { folder: string; name: string; project: string; counts: Record<string, number>; transformation: { _id: string; name: string }; workflow: string; webhook: { automation: string; routeName: string } };
  /** A pre-built of workflows and transformations only, which need one adapter. */
  lean: { folder: string; counts: Record<string, number>; adapter: string } | undefined;
}

const expectations: Expected[] = [
  {
    source: fixtures,
    full: {
      folder: 'Instance-Check-Example',
      name: 'Instance Check - Example',
      project: 'Instance Check - Example.project.json',
      counts: { workflows: 4, transformations: 4, json_forms: 1, templates: 1, mop_templates: 1, automations: 2 },
      transformation: { _id: '6a0c1e5a0000000000000f03', name: 'Process Instance State - Example' },
      workflow: 'Update Change Request - Example',
      webhook: { automation: 'Change Request Webhook - Example', routeName: 'change-request-webhook' },
    },
    lean: undefined,
  },
  {
    source: corpus,
    full: {
      folder: 'Kentik-REST-Example',
      name: 'Kentik - REST - Example',
      project: 'Kentik - Example - REST.project.json',
      counts: { workflows: 13, transformations: 12, json_forms: 3, templates: 2, mop_templates: 1, automations: 4 },
      transformation: { _id: '649dd079d8cf7a00af456027', name: 'AWS Blocked Traffic Event' },
      workflow: 'Command Template Runner',
      webhook: { automation: 'AWS Blocked Traffic - Kentik - Example', routeName: 'test-webhook' },
    },
    lean: { folder: 'AWS-EC2-REST', counts: { workflows: 12, transformations: 10 }, adapter: 'Awsec2' },
  },
];

describe.each(expectations)('importing the pre-builts $source.tag', ({ source, full, lean }) => {
  const folder = source.prebuilt(full.folder);

  it.skipIf(!source.present)(`imports the ${full.folder} pre-built folder: every artifact into its collection, with what its workflows need`, async () => {
    const files = folderFiles(folder);
    const summary = await finished(await host.api('/projects/imports', { method: 'POST', json: { files } }));
    const manifest = JSON.parse(readFileSync(path.join(folder, 'manifest.json'), 'utf8')) as { artifacts: { type: string }[] };
    expect(summary).toMatchObject({ name: full.name, format: 'prebuilt' });
    expect(summary.items).toHaveLength(manifest.artifacts.length);
    expect(summary.counts).toEqual({ imported: manifest.artifacts.length, replaced: 0, refused: 0, skipped: 0 });
    expect(byCollection(summary, 'imported')).toEqual(full.counts);
    // Stored in the service's collections, transformations under their own _id.
    const store = host.state.runtime.store;
    expect(await store.collection('transformations').findOne({ _id: full.transformation._id })).toMatchObject({ name: full.transformation.name });
    expect(await store.collection('mop_templates').find({}).then((docs) => docs.length)).toBeGreaterThanOrEqual(1);
    // Automations as Operations Manager keeps them: listed at its route, each trigger a document naming its automation.
    const automations = (await (await host.api('/operations-manager/automations?limit=0')).json()) as { data: { _id: string; name: string; componentName: string; triggers?: unknown }[]; metadata: { total: number } };
    const shipped = manifest.artifacts.filter((a) => a.type === 'automation').map((a) => (a as { name?: string }).name);
    expect(shipped).toHaveLength(full.counts.automations!);
    expect(automations.data.map((a) => a.name)).toEqual(expect.arrayContaining(shipped));
    const hook = automations.data.find((a) => a.name === full.webhook.automation)!;
    expect(hook.triggers).toBeUndefined();
    const triggers = (await (await host.api(`/operations-manager/triggers?equals=${hook._id}&equalsField=actionId`)).json()) as { data: { type: string; routeName: string; actionId: string }[] };
    expect(triggers.data).toEqual([expect.objectContaining({ type: 'endpoint', routeName: full.webhook.routeName, actionId: hook._id, verb: 'POST' })]);
    expect(summary.items.filter((i) => i.collection === 'automations').map((i) => i.message)).toEqual(summary.items.filter((i) => i.collection === 'automations').map(() => undefined));

    // What is missing: every adapter and application the workflows use (none is installed here),
    // and no transformation or child workflow, since the bundle carried them.
    const wfDir = path.join(folder, 'bundles', 'workflows');
    const used = new Set<string>();
    for (const name of readdirSync(wfDir)) {
      const doc = JSON.parse(readFileSync(path.join(wfDir, name), 'utf8')) as { tasks: Record<string, Task> };
      for (const task of Object.values(doc.tasks)) if (task.app && !ownTask(task)) used.add(task.app);
    }
    const missing = new Set(summary.needs.flatMap((w) => w.needs.filter((p) => p.kind !== 'method' || !p.name.startsWith('WorkFlowEngine.')).map((p) => p.name.split('.')[0]!)));
    expect([...missing].sort()).toEqual([...used].sort());
    expect(summary.needs.flatMap((w) => w.needs).filter((p) => p.kind === 'transformation' || p.kind === 'workflow')).toEqual([]);
  });

  it.skipIf(!source.present)('replaces what a second import brings again', async () => {
    const summary = await finished(await host.api('/projects/imports', { method: 'POST', json: { files: folderFiles(folder) } }));
    expect(summary.counts.replaced).toBe(summary.items.length);
    expect((await (await host.api('/workflows')).json()).items.filter((w: { name: string }) => w.name === full.workflow)).toHaveLength(1);
  });

  it.skipIf(!source.present)('imports the project export by path (for scripts), its components into the same collections', async () => {
    const file = path.join(folder, full.project);
    const summary = await finished(await host.api('/projects/imports/path', { method: 'POST', json: { path: file } }));
    const project = JSON.parse(readFileSync(file, 'utf8')) as { _id: string; name: string; components: unknown[] };
    expect(summary).toMatchObject({ format: 'project', name: project.name, projectId: project._id });
    expect(summary.items).toHaveLength(project.components.length);
    expect(summary.counts.refused + summary.counts.skipped).toBe(0);
    const { automations: _a, ...inProject } = full.counts;
    expect(byCollection(summary, 'replaced')).toMatchObject(inProject);
  });

  if (lean) it.skipIf(!source.present)('imports a pre-built folder of workflows and transformations by path; its workflows then need only one adapter and built-in tasks', async () => {
    const summary = await finished(await host.api('/projects/imports/path', { method: 'POST', json: { path: source.prebuilt(lean.folder) } }));
    expect(byCollection(summary, 'imported')).toEqual(lean.counts);
    const parts = new Set(summary.needs.flatMap((w) => w.needs.map((p) => `${p.kind} ${p.name.split('.')[0]}`)));
    parts.delete('method WorkFlowEngine');
    expect([...parts]).toEqual([`adapter ${lean.adapter}`]);
  });
});

describe('project references and bad input', () => {
  it('resolves @<projectId>: Name child-job references to the names stored', async () => {
    const projectId = '0123456789abcdef01234567';
    const child = { name: 'Child of project', tasks: {}, transitions: { workflow_start: { workflow_end: { type: 'standard', state: 'success' } } } };
    const parent = {
      name: 'Parent of project',
      tasks: { c: { name: 'childJob', app: 'WorkFlowEngine', type: 'operation', variables: { incoming: { task: '', workflow: `@${projectId}: Child of project`, variables: {} } } } },
      transitions: { workflow_start: { c: { type: 'standard', state: 'success' } }, c: { workflow_end: { type: 'standard', state: 'success' } } },
    };
    const project = {
      _id: projectId,
      name: 'Tiny project',
      components: [
        { iid: 1, type: 'workflow', reference: 'r1', folder: '/', document: parent },
        { iid: 2, type: 'workflow', reference: 'r2', folder: '/', document: child },
        { iid: 3, type: 'somethingNew', reference: 'r3', folder: '/', document: { name: 'x' } },
      ],
    };
    const summary = await finished(await host.api('/projects/imports', { method: 'POST', json: { files: [{ path: 'tiny.project.json', content: project }] } }));
    expect(summary.referencesResolved).toBe(1);
    expect(summary.counts).toEqual({ imported: 2, replaced: 0, refused: 0, skipped: 1 });
    expect(summary.items.find((i) => i.outcome === 'skipped')!.message).toBe('the console does not keep artifacts of type "somethingNew"');
    const stored = await (await host.api(`/workflows/${encodeURIComponent('Parent of project')}`)).json();
    expect(stored.tasks.c.variables.incoming.workflow).toBe('Child of project');
    expect(summary.needs).toEqual([]);
  });

  it('takes an artifact.json that holds its documents whole, beside an older manifest.json that lists fewer', async () => {
    const jst = (id: string, name: string) => ({ _id: id, name, incoming: [], outgoing: [], steps: [], functions: [] });
    const files = [
      // As a real pre-built has it: manifest.json lists one document under its old name, artifact.json all of them.
      { path: 'dm/manifest.json', content: { bundleName: 'Data', version: '0.0.1', artifacts: [{ id: '5f2d0000000000000000aaaa', name: 'oldName', type: 'transformation', location: '/bundles/transformations/oldName.json' }] } },
      { path: 'dm/bundles/transformations/oldName.json', content: jst('5f2d0000000000000000aaaa', 'oldName') },
      {
        path: 'dm/artifact.json',
        content: {
          metadata: { name: '@vendor/data', version: '0.0.3' },
          manifest: { bundleName: 'Data', artifacts: [
            { id: '5f2d0000000000000000aaaa', name: 'New Name', type: 'transformation', location: '/bundles/transformations/New Name.json' },
            { id: '5f2d0000000000000000bbbb', name: 'Second', type: 'transformation', location: '/bundles/transformations/Second.json' },
          ] },
          bundles: [
            { type: 'transformation', data: jst('5f2d0000000000000000aaaa', 'New Name') },
            { type: 'transformation', data: jst('5f2d0000000000000000bbbb', 'Second') },
          ],
        },
      },
    ];
    const summary = await finished(await host.api('/projects/imports', { method: 'POST', json: { files } }));
    expect(summary.counts).toEqual({ imported: 2, replaced: 0, refused: 0, skipped: 1 });
    expect(summary.items.filter((i) => i.outcome === 'imported').map((i) => i.name).sort()).toEqual(['New Name', 'Second']);
    expect(summary.items.find((i) => i.outcome === 'skipped')).toMatchObject({ name: 'oldName', message: expect.stringContaining('as "New Name" listed before it does') });
  });

  it('lists a refused workflow with its problems and imports the rest', async () => {
    const files = [
      { path: 'p/manifest.json', content: { bundleName: 'Half good', artifacts: [
        { id: 'a', name: 'Good one', type: 'workflow', location: '/bundles/workflows/a.json' },
        { id: 'b', name: 'Bad one', type: 'workflow', location: '/bundles/workflows/b.json' },
        { id: 'c', name: 'Gone', type: 'workflow', location: '/bundles/workflows/c.json' },
      ] } },
      { path: 'p/bundles/workflows/a.json', content: { name: 'Good one', tasks: {}, transitions: { workflow_start: { workflow_end: { type: 'standard', state: 'success' } } } } },
      // A transition state the service does not have: refused (a transition to a missing task is only a warning).
      { path: 'p/bundles/workflows/b.json', content: { name: 'Bad one', tasks: {}, transitions: { workflow_start: { workflow_end: { type: 'standard', state: 'finished' } } } } },
    ];
    const summary = await finished(await host.api('/projects/imports', { method: 'POST', json: { files } }));
    expect(summary.counts).toEqual({ imported: 1, replaced: 0, refused: 1, skipped: 1 });
    const bad = summary.items.find((i) => i.name === 'Bad one')!;
    expect(bad.problems).toContainEqual(expect.objectContaining({ transition: { src: 'workflow_start', dst: 'workflow_end' } }));
    expect(summary.items.find((i) => i.name === 'Gone')!.message).toContain('was not among the files given');
  });

  it('answers 400 naming the field for files that are no bundle and for a bad path', async () => {
    const none = await host.api('/projects/imports', { method: 'POST', json: { files: [{ path: 'x/readme.json', content: { hello: 1 } }] } });
    expect(none.status).toBe(400);
    expect((await none.json()).issues).toEqual([expect.objectContaining({ path: 'body.files', message: expect.stringContaining('none of the 1 files is a pre-built') })]);
    const relative = await host.api('/projects/imports/path', { method: 'POST', json: { path: 'some/folder' } });
    expect(relative.status).toBe(400);
    expect((await relative.json()).issues[0].path).toBe('body.path');
    const missing = await host.api('/projects/imports/path', { method: 'POST', json: { path: '/no/such/folder' } });
    expect(missing.status).toBe(400);
    expect((await missing.json()).message).toContain('does not exist');
    expect((await host.api('/projects/imports/nope')).status).toBe(404);
  });
});
