// The first run's example: POST /projects/imports/example imports the pre-built shipped with the
// console (the project's own fixture) in the background, as any pre-built, and a second import
// replaces what the first made; a console without the folder answers 404 saying what to do instead.
import { describe, expect, it } from 'vitest';
import { createProjectsService } from '../../core/projects/service';
import { startTestHost } from '../support/host';
import { waitFor } from '../adapters/support';

describe('the example pre-built', () => {
  it('imports the shipped example, and again over itself', async () => {
    const host = await startTestHost();
    try {
      const importOnce = async () => {
        const started = await host.api('/projects/imports/example', { method: 'POST' });
        expect(started.status).toBe(202);
        const { id } = await started.json();
        return waitFor(async () => {
          const run = await (await host.api(`/projects/imports/${id}`)).json();
          return run.state !== 'running' && run;
        }, 'the example import to end');
      };
      const first = await importOnce();
      expect(first.state).toBe('done');
      expect(first.summary.counts).toMatchObject({ imported: 13, refused: 0 });
      const names = (await (await host.api('/workflows')).json()).items.map((w: { name: string }) => w.name);
      expect(names).toContain('Wait for Device Sync - Example');
      expect((await importOnce()).summary.counts).toMatchObject({ replaced: 13, refused: 0 });
    } finally {
      await host.close();
    }
  });

  it('answers 404 naming what to do when the console ships without it', async () => {
    const service = createProjectsService({ store: () => { throw new Error('not read'); }, workflows: { importWorkflow: async () => { throw new Error('not called'); } } as never, example: () => ({ name: 'example', dir: '/nowhere/example' }) });
    await expect(service.importExample()).rejects.toMatchObject({ code: 'not_found', message: expect.stringContaining('import a pre-built of your own on the Import page') });
  });
});
