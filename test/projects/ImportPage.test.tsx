// @vitest-environment happy-dom
// The Import page against a scripted console: picked files are read and sent, the
// progress is shown while the import runs, then its summary.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ImportPage } from '../../renderer/projects/ImportPage';
import { renderWithClient, scripted, type Reply } from '../support/console-ui';
import type { ImportRun } from '../../core/contract/projects';

afterEach(() => {
  cleanup();
  delete window.consoleApi;
});

const ok = (data: unknown): Reply => ({ ok: true, data });
/** The Import page also lists the projects kept: none here. */
const noProjects = { 'projects.studioList': () => ok({ message: 'Successfully retrieved projects', data: [], metadata: { skip: 0, limit: 0, total: 0 } }) };

const summary = {
  name: 'Tiny',
  format: 'prebuilt',
  items: [
    { type: 'workflow', name: 'Good', collection: 'workflows', source: 'p/bundles/workflows/a.json', outcome: 'imported' },
    {
      type: 'workflow',
      name: 'Bad',
      collection: 'workflows',
      source: 'p/bundles/workflows/b.json',
      outcome: 'refused',
      message: 'workflow "Bad" cannot be imported',
      problems: [{ path: 'transitions.workflow_start.x', transition: { src: 'workflow_start', dst: 'x' }, message: 'transition workflow_start → x: there is no task "x" to go to' }],
    },
    { type: 'golden-config', name: 'GC', source: 'p/bundles/x/gc.json', outcome: 'skipped', message: 'the console does not keep artifacts of type "golden-config"' },
  ],
  counts: { imported: 1, replaced: 0, refused: 1, skipped: 1 },
  referencesResolved: 0,
  needs: [{ workflow: 'Good', needs: [{ kind: 'adapter', name: 'Servicenow', tasks: ['a1', 'a2'], label: 'adapter Servicenow (2 tasks)' }] }],
};

describe('Import page', () => {
  it('sends the JSON files of the picked folder, shows the progress, then the summary', async () => {
    let polls = 0;
    const running: ImportRun = { id: 'r1', source: '3 files of p', state: 'running', done: 1, total: 3, current: 'Bad' };
    const calls = scripted({
      ...noProjects,
      'projects.import': () => ok({ ...running, done: 0 }),
      'projects.importRun': () => ok(++polls < 2 ? running : { ...running, state: 'done', done: 3, current: undefined, summary }),
    });
    renderWithClient(<ImportPage />);
    const manifest = new File([JSON.stringify({ artifacts: [] })], 'manifest.json', { type: 'application/json' });
    const notes = new File(['not json'], 'README.md');
    fireEvent.change(screen.getByLabelText('Pre-built folder'), { target: { files: [manifest, notes] } });

    expect((await screen.findByRole('status', { name: 'Import progress' })).textContent).toMatch(/Imported \d of 3/);
    const done = await screen.findByRole('status', { name: 'Import summary' });
    expect(done.textContent).toContain('Pre-built “Tiny”: 1 imported, 0 replaced, 1 refused, 1 left out.');
    expect(calls.find((c) => c.name === 'projects.import')).toEqual({ name: 'projects.import', input: { body: { files: [{ path: 'manifest.json', content: { artifacts: [] } }] } } });

    expect(within(screen.getByRole('region', { name: 'Refused' })).getByText('transition workflow_start → x: there is no task "x" to go to')).toBeTruthy();
    const needs = screen.getByRole('table', { name: 'What the workflows need' });
    expect(needs.textContent).toContain('Needs: Servicenow (2 tasks)');
    expect(needs.textContent).toContain('adapter instance Servicenow, used by 2 tasks: a1, a2');
    expect(screen.getByRole('table', { name: 'Artifacts' }).textContent).toContain('the console does not keep artifacts of type "golden-config"');
  });

  it('names the field when the console refuses what was sent', async () => {
    scripted({
      ...noProjects,
      'projects.importPath': () => ({ ok: false, error: { statusCode: 400, error: 'Bad Request', message: 'body.path: "x" must be an absolute path on the console\'s machine', issues: [{ path: 'body.path', message: '"x" must be an absolute path on the console\'s machine' }] } as never }),
    });
    renderWithClient(<ImportPage />);
    fireEvent.change(screen.getByLabelText("Or a folder or file on the console's machine"), { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('The import could not start: "x" must be an absolute path'));
  });
});
