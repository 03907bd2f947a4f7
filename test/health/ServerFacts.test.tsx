// @vitest-environment happy-dom
// The Health page's Server tab against a scripted console behind the preload bridge: the release
// the service's clients read, the console process and its machine, apps and adapters in the service's words.
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ServerFacts } from '../../renderer/health/ServerFacts';
import { renderWithClient, scripted } from '../support/console-ui';

afterEach(() => {
  cleanup();
  delete window.consoleApi;
});

const times = { user: 1, nice: 0, sys: 1, idle: 5, irq: 0 };
const facts = (apps: 'running' | 'degraded') => ({
  'health.status': () => ({
    ok: true as const,
    data: {
      host: 'dr-site-2', serverId: 'abc', serverName: 'standby', services: [], timestamp: 1, apps, adapters: 'running',
      release: '2022.1', profile: 'p', store: 'embedded', taskWorker: { running: true },
    },
  }),
  'health.server': () => ({
    ok: true as const,
    data: {
      version: '2022.1.0', release: '2022.1', arch: 'x64', platform: 'linux', versions: { node: '22.13.0' },
      memoryUsage: { rss: 300 * 2 ** 20, heapTotal: 100 * 2 ** 20, heapUsed: 50 * 2 ** 20, external: 1, arrayBuffers: 1 },
      cpuUsage: { user: 1, system: 1 }, uptime: 3725, pid: 4242, dependencies: {},
    },
  }),
  'health.system': () => ({
    ok: true as const,
    data: { arch: 'x64', release: '6.8.0', uptime: 90000, freemem: 2 * 2 ** 30, totalmem: 8 * 2 ** 30, loadavg: [0.5, 0.25, 0.125], cpus: [{ model: 'Xeon', speed: 2000, times }, { model: 'Xeon', speed: 2000, times }] },
  }),
});

describe('ServerFacts', () => {
  it('shows the release and build, the process and the machine', async () => {
    scripted(facts('running'));
    renderWithClient(<ServerFacts />);
    const shown = await screen.findByLabelText('Console process');
    expect(shown.textContent).toContain('2022.1 (build 2022.1.0)');
    expect(shown.textContent).toContain('dr-site-2 (server standby)');
    expect(shown.textContent).toContain('22.13.0 on linux x64');
    expect(shown.textContent).toContain('1h 2m');
    expect(shown.textContent).toContain('300.0 MB');
    expect(within(shown).getAllByText('running')).toHaveLength(2);
    const machine = screen.getByLabelText('Machine');
    expect(machine.textContent).toContain('2.0 GB of 8.0 GB');
    expect(machine.textContent).toContain('0.50, 0.25, 0.13');
    expect(machine.textContent).toContain('2 × Xeon');
  });

  it('says degraded when an application is not running', async () => {
    scripted(facts('degraded'));
    renderWithClient(<ServerFacts />);
    const shown = await screen.findByLabelText('Console process');
    expect(within(shown).getByText('degraded').className).toContain('warn');
  });

  it('says why when the facts cannot be read', async () => {
    scripted({ ...facts('running'), 'health.server': () => ({ ok: false, error: { statusCode: 503, error: 'Service Unavailable', message: 'the store does not answer' } }) });
    renderWithClient(<ServerFacts />);
    expect(await screen.findByText(/Cannot read the server facts: the store does not answer/)).toBeDefined();
  });
});
