// @vitest-environment happy-dom
// The Upgrade page against a scripted console behind the preload bridge: progress while the
// check runs, then the findings grouped by rule with their fixes.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { UpgradeReport, UpgradeRun } from '../../core/contract/upgrade';
import { UpgradePage } from '../../renderer/upgrade/UpgradePage';

afterEach(() => {
  cleanup();
  delete window.consoleApi;
  window.localStorage.clear();
});

const report: UpgradeReport = {
  findings: [
    { rule: 'npm-run-index', file: 'scripts/reindex.sh', line: 5, message: 'The shell script runs `npm run index`', fix: 'Use POST /indexes/:collectionName', section: '4 rule 4; 9.1', blocking: true },
    { rule: 'child-job-undefined', file: 'wf.json', line: 9, message: 'passes variable "note", which is null', fix: 'Give it a value', section: '1.1', blocking: false },
  ],
  summary: { root: '/site', release: '2022.1', filesScanned: 7, skipped: [], findings: 2, blocking: 1, warnings: 1, byRule: {}, blocked: true },
};

/** Each read of the run answers the next state; the last one repeats. */
function scriptedConsole(states: Partial<UpgradeRun>[], startError?: { statusCode: number; message: string; issues?: { path: string; message: string }[] }) {
  let reads = 0;
  const base = { id: 'r1', path: '/site', state: 'running', phase: 'listing', done: 0, total: 0 };
  window.consoleApi = {
    operations: {
      'upgrade.start': async () =>
        startError ? { ok: false as const, error: { error: 'Bad Request', ...startError } } : { ok: true as const, data: base },
      'upgrade.run': async () => ({ ok: true as const, data: { ...base, ...states[Math.min(reads++, states.length - 1)] } }),
    },
  };
}

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <UpgradePage />
    </QueryClientProvider>,
  );
}

describe('Upgrade page', () => {
  it('shows the files read while the check runs, then the findings grouped by rule with the fix beside each', async () => {
    scriptedConsole([
      { phase: 'reading', done: 3, total: 7, file: 'apps/a.js' },
      { state: 'done', phase: 'finished', done: 7, total: 7, report },
    ]);
    renderPage();
    fireEvent.change(screen.getByLabelText("Folder on the console's machine"), { target: { value: '/site' } });
    fireEvent.click(screen.getByRole('button', { name: 'Run check' }));
    expect(await screen.findByText(/Read 3 of 7 files/)).toBeTruthy();
    expect(await screen.findByText('1 finding blocks the upgrade, 1 warning.', { exact: false })).toBeTruthy();
    const npm = screen.getByRole('region', { name: 'npm run index (removed indexing script)' });
    const row = within(npm).getByText('scripts/reindex.sh:5').closest('tr')!;
    expect(row.textContent).toContain('Use POST /indexes/:collectionName');
    expect(row.textContent).toContain('blocks');
    const child = screen.getByRole('region', { name: 'Child-job variables that can be undefined' });
    expect(child.textContent).toContain('warning');
    expect(screen.queryByRole('status', { name: 'Check progress' })).toBeNull();
  });

  it('shows the server’s message beside the field when the path is refused', async () => {
    scriptedConsole([], { statusCode: 400, message: 'body.path: "/x" does not exist', issues: [{ path: 'body.path', message: '"/x" does not exist on the console\'s machine' }] });
    renderPage();
    fireEvent.change(screen.getByLabelText("Folder on the console's machine"), { target: { value: '/x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Run check' }));
    expect((await screen.findByRole('alert')).textContent).toBe('"/x" does not exist on the console\'s machine');
  });

  it('says when the check failed', async () => {
    scriptedConsole([{ state: 'failed', phase: 'finished', error: '/site is not a folder' }]);
    renderPage();
    fireEvent.change(screen.getByLabelText("Folder on the console's machine"), { target: { value: '/site' } });
    fireEvent.click(screen.getByRole('button', { name: 'Run check' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The check failed: /site is not a folder');
  });
});
