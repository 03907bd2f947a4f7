// @vitest-environment happy-dom
// The Health page's tables against a scripted console behind the preload bridge.
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { HealthTable } from '../../renderer/health/HealthTable';
import { formatBytes, formatUptime } from '../../renderer/health/format';
import { renderWithClient, scripted, type Reply } from '../support/console-ui';

afterEach(() => {
  cleanup();
  delete window.consoleApi;
});

const adapter = (id: string, over: Record<string, unknown> = {}) => ({
  id,
  package_id: `@x/${id}`,
  version: '1.0.0',
  type: 'Adapter',
  description: `${id} adapter`,
  routePrefix: id,
  state: 'RUNNING',
  connection: { state: 'ONLINE' },
  uptime: 3725,
  prevUptime: 3720,
  memoryUsage: { rss: 45 * 2 ** 20, heapTotal: 1, heapUsed: 1, external: 1, arrayBuffers: 1 },
  cpuUsage: { user: 1, system: 1 },
  pid: 4242,
  logger: { console: 'warn', file: 'info', syslog: {} },
  timestamp: 0,
  restartCount: 0,
  lastCrash: null,
  ...over,
});

describe('HealthTable (adapters)', () => {
  it('marks unhealthy adapters, shows restarts and the last crash with its stderr', async () => {
    scripted({
      'health.adapters': () => ({
        ok: true,
        data: {
          total: 2,
          results: [
            adapter('inventory'),
            adapter('netbox', {
              state: 'DEAD',
              connection: { state: 'OFFLINE', detail: 'the adapter process is dead' },
              // A dead adapter has no process: the answer's 0s, shown as dashes.
              pid: 0,
              memoryUsage: { rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 },
              cpuUsage: { user: 0, system: 0 },
              uptime: 0,
              prevUptime: 0,
              restartCount: 4,
              lastCrash: { at: '2022-03-01T10:00:00.000Z', exitCode: 3, signal: null, stderr: ['TypeError: x is undefined'], message: 'adapter "netbox" crashed (exit code 3)' },
            }),
          ],
        },
      }),
    });
    renderWithClient(<HealthTable kind="adapters" />);
    const table = await screen.findByRole('table', { name: 'Adapters' });
    const healthy = within(table).getByRole('row', { name: 'inventory' });
    expect(within(healthy).queryByRole('img', { name: /Unhealthy/ })).toBeNull();
    expect(within(healthy).getByText('1h 2m')).toBeTruthy();
    expect(within(healthy).getByText('45.0 MB')).toBeTruthy();
    const dead = within(table).getByRole('row', { name: 'netbox' });
    expect(within(dead).getByRole('img', { name: 'Unhealthy: OFFLINE: the adapter process is dead' })).toBeTruthy();
    expect(within(dead).getByText('DEAD')).toBeTruthy();
    expect(within(healthy).getByText('4242')).toBeTruthy();
    expect(within(dead).getAllByText('—')).toHaveLength(3); // uptime, memory and pid
    expect(within(dead).getByText('4')).toBeTruthy();
    expect(within(dead).getByText('adapter "netbox" crashed (exit code 3)')).toBeTruthy();
    expect(within(dead).getByLabelText('Last stderr lines').textContent).toBe('TypeError: x is undefined');
    expect(screen.getByText(/2 adapters · 1 unhealthy/)).toBeTruthy();
  });

  it('keeps the previous rows on screen while a new filter loads, then shows the answer', async () => {
    let release!: () => void;
    const calls = scripted({
      'health.adapters': (input) => {
        const query = (input as { query: { contains?: string } }).query;
        if (!query.contains) return { ok: true, data: { total: 2, results: [adapter('inventory'), adapter('netbox')] } };
        return new Promise<Reply>((resolve) => {
          release = () => resolve({ ok: true, data: { total: 1, results: [adapter('netbox')] } });
        });
      },
    });
    renderWithClient(<HealthTable kind="adapters" />);
    await screen.findByRole('row', { name: 'inventory' });
    fireEvent.change(screen.getByRole('textbox', { name: 'Filter adapters' }), { target: { value: 'net' } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls.at(-1)?.input).toMatchObject({ query: { contains: 'net', containsField: 'name', sort: 'name', order: 1 } });
    // No flicker: the old answer stays while the new one is on its way.
    expect(screen.getByRole('row', { name: 'inventory' })).toBeTruthy();
    expect(screen.queryByText(/Loading/)).toBeNull();
    release();
    await screen.findByText(/1 adapters/);
    expect(screen.queryByRole('row', { name: 'inventory' })).toBeNull();
  });

  it('stops an adapter and shows the server\'s error when an action fails', async () => {
    const calls = scripted({
      'health.adapters': () => ({ ok: true, data: { total: 1, results: [adapter('inventory')] } }),
      'adapters.stop': () => ({ ok: false, error: { statusCode: 500, error: 'Internal Server Error', message: 'adapter "inventory" did not stop' } }),
    });
    renderWithClient(<HealthTable kind="adapters" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Stop inventory' }));
    // Stop asks first; nothing is sent until the operator confirms.
    expect(calls.find((c) => c.name === 'adapters.stop')).toBeUndefined();
    fireEvent.click(screen.getByRole('button', { name: 'Yes, stop inventory' }));
    expect((await screen.findAllByText('adapter "inventory" did not stop')).length).toBeGreaterThan(0);
    expect(calls.find((c) => c.name === 'adapters.stop')?.input).toEqual({ params: { name: 'inventory' } });
  });

  it('shows STUB next to the state of an adapter answering from mock data, and stops an application', async () => {
    const calls = scripted({
      'health.adapters': () => ({ ok: true, data: { total: 2, results: [adapter('inventory', { stub: true }), adapter('netbox', { stub: false })] } }),
      'health.applications': () => ({ ok: true, data: { total: 1, results: [{ ...adapter('OperationsManager'), type: 'Application', connection: undefined }] } }),
      'applications.stop': () => ({ ok: true, data: { ...adapter('OperationsManager'), type: 'Application', state: 'STOPPED' } }),
    });
    renderWithClient(<HealthTable kind="adapters" />);
    expect(within(await screen.findByRole('row', { name: 'inventory' })).getByText('STUB')).toBeTruthy();
    expect(within(screen.getByRole('row', { name: 'netbox' })).queryByText('STUB')).toBeNull();
    cleanup();
    renderWithClient(<HealthTable kind="applications" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Stop OperationsManager' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, stop OperationsManager' }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls.find((c) => c.name === 'applications.stop')?.input).toEqual({ params: { name: 'OperationsManager' } });
  });

  it('shows the server\'s message when the list cannot be read', async () => {
    scripted({ 'health.adapters': () => ({ ok: false, error: { statusCode: 400, error: 'Bad Request', message: 'query.limit: expected a whole number from 1 to 1000' } }) });
    renderWithClient(<HealthTable kind="adapters" />);
    expect(await screen.findByText('Cannot read the adapters: query.limit: expected a whole number from 1 to 1000')).toBeTruthy();
  });
});

describe('formatting', () => {
  it('formats uptimes and sizes for people', () => {
    expect(formatUptime(0)).toBe('—');
    expect(formatUptime(59.9)).toBe('59s');
    expect(formatUptime(61)).toBe('1m 1s');
    expect(formatUptime(90061)).toBe('1d 1h');
    expect(formatBytes(null)).toBe('—');
    expect(formatBytes(3 * 2 ** 30)).toBe('3.0 GB');
  });
});
