// @vitest-environment happy-dom
// The store card and the connection test against a scripted console behind the preload bridge.
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreCard } from '../../renderer/store/StoreCard';
import { TestConnectionButton } from '../../renderer/store/TestConnectionButton';
import { renderWithClient, scripted } from '../support/console-ui';

afterEach(() => {
  cleanup();
  delete window.consoleApi;
});

describe('StoreCard', () => {
  it('shows the embedded store and where it is, connected', async () => {
    scripted({ 'store.status': () => ({ ok: true, data: { kind: 'embedded', location: 'embedded store in /data/profiles/default/db', connected: true } }) });
    renderWithClient(<StoreCard profileId="default" />);
    const card = screen.getByRole('region', { name: 'Store' });
    expect(await within(card).findByText('Embedded store')).toBeTruthy();
    expect(within(card).getByText('embedded store in /data/profiles/default/db')).toBeTruthy();
    expect(within(card).getByText('connected')).toBeTruthy();
  });

  it("shows the embedded file's integrity check, ok or the problems found", async () => {
    let integrity = { ok: true, problems: [] as string[], checkedAt: 1 };
    scripted({ 'store.status': () => ({ ok: true, data: { kind: 'embedded', location: 'embedded store in /d/console.sqlite', connected: true, integrity } }) });
    renderWithClient(<StoreCard profileId="default" />);
    const line = await screen.findByText(/Integrity check/);
    expect(line.textContent).toBe('Integrity check: ok');
    cleanup();
    integrity = { ok: false, problems: ['row 12 missing from index i:jobs:name_1'], checkedAt: 2 };
    renderWithClient(<StoreCard profileId="default" />);
    expect((await screen.findByText(/Integrity check/)).textContent).toBe('Integrity check: problems row 12 missing from index i:jobs:name_1');
  });

  it('shows the MongoDB host and the error when it is not connected', async () => {
    scripted({
      'store.status': () => ({
        ok: true,
        data: { kind: 'mongodb', location: 'MongoDB at db1.example:27017 (db pronghorn)', connected: false, error: 'cannot reach MongoDB at db1.example:27017 within 5 s: connection refused' },
      }),
    });
    renderWithClient(<StoreCard profileId="dr" />);
    expect(await screen.findByText('MongoDB')).toBeTruthy();
    expect(screen.getByText('MongoDB at db1.example:27017 (db pronghorn)')).toBeTruthy();
    expect(screen.getByText('not connected')).toBeTruthy();
    expect(screen.getByText('cannot reach MongoDB at db1.example:27017 within 5 s: connection refused')).toBeTruthy();
  });

  it("shows the server's message when the status cannot be read", async () => {
    scripted({ 'store.status': () => ({ ok: false, error: { statusCode: 500, error: 'Internal Server Error', message: 'store closed' } }) });
    renderWithClient(<StoreCard profileId="default" />);
    expect(await screen.findByText("Cannot read the store's status: store closed")).toBeTruthy();
  });
});

describe('TestConnectionButton', () => {
  it('tests the given profile and shows the latency', async () => {
    const calls = scripted({
      'store.testConnection': () => ({ ok: true, data: { ok: true, kind: 'mongodb', location: 'MongoDB at db1.example:27017 (db pronghorn)', latencyMs: 3.2 } }),
    });
    renderWithClient(<TestConnectionButton profileId="primary" />);
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    const result = screen.getByRole('status', { name: 'Connection test of primary' });
    expect(await within(result).findByText('Connected to MongoDB at db1.example:27017 (db pronghorn) in 3.2 ms')).toBeTruthy();
    expect(calls).toEqual([{ name: 'store.testConnection', input: { params: { id: 'primary' } } }]);
  });

  it('shows why the connection failed', async () => {
    scripted({
      'store.testConnection': () => ({ ok: true, data: { ok: false, kind: 'mongodb', location: 'MongoDB at db1:27017 (db p)', error: 'authentication failed for user itential on db pronghorn' } }),
    });
    renderWithClient(<TestConnectionButton profileId="primary" />);
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText('Connection failed: authentication failed for user itential on db pronghorn')).toBeTruthy();
  });

  it('shows an unknown profile as the server says it', async () => {
    scripted({ 'store.testConnection': () => ({ ok: false, error: { statusCode: 404, error: 'Not Found', message: 'profile "gone" not found' } }) });
    renderWithClient(<TestConnectionButton profileId="gone" />);
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText('Cannot test the connection: profile "gone" not found')).toBeTruthy();
  });
});
