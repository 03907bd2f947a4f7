// @vitest-environment happy-dom
// Every backup on the Store card, against a scripted console: each row says how it stands against
// its manifest; a bad one cannot be restored; an unverified one is restored only after a
// confirmation that says it is unverified, sent as { unverified: true }.
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreCard } from '../../renderer/store/StoreCard';
import { renderWithClient, scripted } from '../support/console-ui';

afterEach(() => {
  cleanup();
  delete window.consoleApi;
});

const at = (iso: string) => Date.parse(iso);
const backups = [
  { id: 'backup-20261127T120000000Z-aaaaaa', file: '/d/backups/a.sqlite', takenAt: at('2026-11-27T12:00:00Z'), bytes: 4096, check: { state: 'ok' }, counts: { jobs: 7 } },
  { id: 'backup-20261127T110000000Z-bbbbbb', file: '/d/backups/b.sqlite', takenAt: at('2026-11-27T11:00:00Z'), bytes: 0, check: { state: 'bad', reason: 'emptied: the file is 0 bytes' } },
  {
    id: 'backup-20261127T100000000Z-cccccc',
    file: '/d/backups/c.sqlite',
    takenAt: at('2026-11-27T10:00:00Z'),
    bytes: 4096,
    check: { state: 'unverified', reason: 'taken before backups carried a manifest: its checksum, size and counts cannot be checked' },
  },
];

function scriptedConsole() {
  return scripted({
    'store.status': () => ({
      ok: true,
      data: {
        kind: 'embedded',
        location: 'embedded store in /d/console.sqlite',
        connected: true,
        backups: { newest: backups[0], count: 3, schedule: { everyMinutes: 60, keep: 24 } },
        identity: { id: 'store-1', createdAt: '2026-11-01T08:00:00.000Z', schemaVersion: 1, generation: 4, highWater: { jobs: 7 } },
      },
    }),
    'store.backups.list': () => ({ ok: true, data: { file: '/d/console.sqlite', storeId: 'store-1', backups, replaced: [], schedule: { everyMinutes: 60, keep: 24 } } }),
    'store.backups.restore': (input) => {
      const { params, body } = input as { params: { id: string }; body: { preview?: boolean } };
      const backup = backups.find((b) => b.id === params.id)!;
      if (body.preview) return { ok: true, data: { preview: true, backup, file: '/d/console.sqlite', discards: { jobs: 2 }, jobs: [{ _id: 'j1', name: 'late' }, { _id: 'j2' }] } };
      return { ok: true, data: { restored: backup, replacedFile: '/d/console.sqlite.replaced-x', file: '/d/console.sqlite' } };
    },
  });
}

describe('the store identity', () => {
  it('names the store the file holds', async () => {
    scriptedConsole();
    renderWithClient(<StoreCard />);
    expect((await screen.findByLabelText('Store identity')).textContent).toMatch(/^Store store-1, created /);
  });
});

describe('the list of all backups', () => {
  it('marks each backup verified, bad (with the failed check) or unverified; a bad one offers no restore', async () => {
    scriptedConsole();
    renderWithClient(<StoreCard />);
    const table = await screen.findByRole('table', { name: 'Backups' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[3]!.textContent)).toEqual([
      'verified',
      'bad emptied: the file is 0 bytes',
      'unverified taken before backups carried a manifest: its checksum, size and counts cannot be checked',
    ]);
    expect(rows.map((r) => within(r).getByRole('button').hasAttribute('disabled'))).toEqual([false, true, false]);
    expect(within(rows[0]!).getAllByRole('cell')[2]!.textContent).toBe('7');
  });

  it('restores an older, unverified backup only after a confirmation that says so, with its preview', async () => {
    const calls = scriptedConsole();
    renderWithClient(<StoreCard />);
    const table = await screen.findByRole('table', { name: 'Backups' });
    fireEvent.click(within(within(table).getAllByRole('row')[3]!).getByRole('button'));
    const confirm = await screen.findByRole('dialog', { name: /Restore the backup of/ });
    expect(within(confirm).getByLabelText('Unverified backup').textContent).toContain('This backup is unverified');
    expect(within(confirm).getByLabelText('What the restore discards').textContent).toContain('It discards 2 documents accepted since the backup: 2 in jobs');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Restore unverified backup' }));
    expect(await screen.findByText(/Restored; the replaced file is kept as/)).toBeTruthy();
    const restores = calls.filter((c) => c.name === 'store.backups.restore').map((c) => c.input);
    expect(restores).toEqual([
      { params: { id: backups[2]!.id }, body: { preview: true } },
      { params: { id: backups[2]!.id }, body: { unverified: true } },
    ]);
  });
});
