// Automation Studio's projects, as the service keeps and answers them and the vendor's MCP server reads
// them (get_projects: GET /automation-studio/projects; describe_project: GET /automation-studio/projects/
// <iid>/export): a project export imported is kept, each component naming the document it was stored as,
// and exported again with each document as it is now, in the form that imports again.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callJson, importedRun, startTestHost, type TestHost } from '../support/host';
import { corpus, fixtures, noteCorpusSkip } from '../support/iap';
import type { ImportSummary } from '../../core/contract/projects';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost();
}, 60_000);
afterAll(() => host?.dispose());

async function imported(files: { path: string; content: unknown }[]): Promise<ImportSummary> {
  const run = await importedRun(host, { files });
  expect([run.state, run.error]).toEqual(['done', undefined]);
  return run.summary!;
}

type Component = { iid: number; type: string; reference: string; folder: string; document?: { name: string } };
const COLLECTIONS: Record<string, string> = { workflow: 'workflows', transformation: 'transformations', jsonForm: 'json_forms', mopCommandTemplate: 'mop_templates', template: 'templates' };

noteCorpusSkip('Automation Studio projects from the real project exports');

describe.each([
  { source: fixtures, folder: 'Instance-Check-Example', file: 'Instance Check - Example.project.json' },
  { source: corpus, folder: 'Kentik-REST-Example', file: 'Kentik - Example - REST.project.json' },
])('the project of $file $source.tag', ({ source, folder, file }) => {
  it.skipIf(!source.present)('is kept as Automation Studio keeps it, read by _id and iid, and exported with its documents in the form that imports again', async () => {
    const exported = JSON.parse(readFileSync(path.join(source.prebuilt(folder), file), 'utf8')) as { _id: string; iid: number; name: string; components: Component[]; [k: string]: unknown };
    await imported([{ path: file, content: exported }]);

    const list = await callJson(host, `/automation-studio/projects?${new URLSearchParams({ 'equals[name]': exported.name })}`);
    expect(list.status).toBe(200);
    expect(list.body.metadata).toEqual({ skip: 0, limit: 25, total: 1 });
    const kept = list.body.data[0];
    // Its own fields as exported (unknown ones too); its components name their documents, not carry them.
    const { components: _c, ...own } = exported;
    expect(kept).toMatchObject(own);
    expect(kept.components).toHaveLength(exported.components.length);
    for (const [i, component] of (kept.components as Component[]).entries()) {
      expect(component).not.toHaveProperty('document');
      expect(component).toMatchObject({ iid: exported.components[i]!.iid, type: exported.components[i]!.type });
      // `reference` is the _id the document is stored under in its collection.
      const stored = await host.state.runtime.store.collection(COLLECTIONS[component.type]!).findOne({ _id: component.reference });
      expect(stored?.name, `${component.type} ${component.reference}`).toBe(exported.components[i]!.document!.name);
    }
    expect((await callJson(host, `/automation-studio/projects/${exported._id}`)).body.data).toEqual(kept);
    expect((await callJson(host, `/automation-studio/projects/${exported.iid}`)).body.data._id).toBe(exported._id);

    // describe_project's call: by iid; each component with its document as stored now.
    const again = await callJson(host, `/automation-studio/projects/${exported.iid}/export`);
    expect([again.status, again.body.message]).toEqual([200, 'Successfully exported project']);
    expect(again.body.data.components.map((c: Component) => c.document?.name)).toEqual(exported.components.map((c) => c.document!.name));
    // The export imports again: every component replaced, none refused, still one project.
    const reimport = await imported([{ path: `again-${file}`, content: again.body.data }]);
    expect(reimport.counts).toMatchObject({ refused: 0, skipped: 0, replaced: exported.components.length });
    expect((await callJson(host, '/automation-studio/projects?limit=0')).body.data.filter((p: { _id: string }) => p._id === exported._id)).toHaveLength(1);
  });
});

describe("Automation Studio's project import", () => {
  it('imports { project } now, answering the project kept and the components it did not import', async () => {
    const exported = JSON.parse(readFileSync(path.join(fixtures.prebuilt('Instance-Check-Example'), 'Instance Check - Example.project.json'), 'utf8')) as { _id: string; components: Component[] };
    const odd = { iid: 99, type: 'goldenConfigTree', reference: 'gc1', folder: '/', document: { name: 'A tree' } };
    const answer = await callJson(host, '/automation-studio/projects/import', { method: 'POST', json: { project: { ...exported, components: [...exported.components, odd] } } });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe('Imported project with 1 component(s) not imported');
    expect(answer.body.data).toMatchObject({ _id: exported._id, components: expect.any(Array) });
    expect(answer.body.data.components).toHaveLength(exported.components.length + 1);
    expect(answer.body.metadata.failedComponents).toEqual([expect.objectContaining({ type: 'goldenConfigTree', outcome: 'skipped', message: 'the console does not keep artifacts of type "goldenConfigTree"' })]);
    expect((await callJson(host, `/automation-studio/projects/${exported._id}`)).body.data).toEqual(answer.body.data);
    // A project with no _id is given one; a body without a project, or a project without components, is named.
    const fresh = await callJson(host, '/automation-studio/projects/import', { method: 'POST', json: { project: { name: 'No id yet', components: [] } } });
    expect(fresh.body.data).toMatchObject({ _id: expect.stringMatching(/^[0-9a-f]{24}$/), name: 'No id yet', iid: expect.any(Number) });
    const bare = await callJson(host, '/automation-studio/projects/import', { method: 'POST', json: exported });
    expect([bare.status, bare.body.message]).toEqual([400, expect.stringContaining('project')]);
    const noComponents = await callJson(host, '/automation-studio/projects/import', { method: 'POST', json: { project: { name: 'x' } } });
    expect([noComponents.status, noComponents.body.message]).toEqual([400, expect.stringContaining('body.project')]);
  });
});

describe('projects: what is not there', () => {
  it('names a project it does not keep, a document no longer stored, and a bad list parameter', async () => {
    const missing = await callJson(host, '/automation-studio/projects/999999/export');
    expect([missing.status, missing.body.message]).toEqual([404, expect.stringContaining('no project has the _id or iid "999999"')]);
    const project = { _id: '0123456789abcdef0123aaaa', name: 'Short-lived', components: [{ iid: 1, type: 'workflow', reference: 'w1', folder: '/', document: { name: 'Short-lived flow', tasks: {}, transitions: {} } }] };
    await imported([{ path: 'short.project.json', content: project }]);
    const kept = (await callJson(host, `/automation-studio/projects/${project._id}`)).body.data;
    expect(kept.iid).toEqual(expect.any(Number));
    expect((await host.api(`/workflows/${encodeURIComponent('Short-lived flow')}`, { method: 'DELETE' })).status).toBeLessThan(300);
    const exported = await callJson(host, `/automation-studio/projects/${project._id}/export`);
    expect(exported.status).toBe(200);
    expect(exported.body.message).toContain(`1 component(s) no longer stored, left without a document: workflow ${kept.components[0].reference}`);
    expect(exported.body.data.components[0]).not.toHaveProperty('document');
    expect((await callJson(host, '/automation-studio/projects?order=3')).status).toBe(400);
    const named = await callJson(host, '/automation-studio/projects?contains=short&include=name');
    expect(named.body.data).toEqual([{ _id: project._id, name: 'Short-lived' }]);
  });
});
