// The desktop bundles as Electron loads them, without an Electron binary: dist/main/main.cjs and
// dist/main/preload.cjs run under plain Node with a stand-in `electron` module that records calls.
// The main process must start: harden the session, open the hardened window on the bundled UI,
// answer every operation over IPC, and start the host on its data directory.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationNames } from '../../../core/contract';
import { requireWithElectron, standInElectron } from './stand-in-electron';

const root = path.resolve(import.meta.dirname, '../../..');
const mainBundle = path.join(root, 'dist/main/main.cjs');
const preloadBundle = path.join(root, 'dist/main/preload.cjs');

async function waitFor<T>(what: string, check: () => T | undefined, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

beforeAll(async () => {
  // The bundle under test is the one this tree builds now (esbuild, about a second).
  await promisify(execFile)(process.execPath, ['scripts/build-main.mjs'], { cwd: root });
}, 60_000);

describe('the main-process bundle', () => {
  let userData: string;
  let last: { data?: { status: string } } | undefined;
  let stand: ReturnType<typeof standInElectron>;

  beforeAll(async () => {
    userData = await mkdtemp(path.join(os.tmpdir(), 'console-main-bundle-'));
    stand = standInElectron(userData);
    // Loading the bundle runs main(): it must not throw at module load (no ESM-only facts).
    requireWithElectron(mainBundle, stand.electron);
    stand.ready();
    await waitFor('the window to load the UI', () => stand.windows[0]?.loaded[0]);
  }, 60_000);

  afterAll(async () => {
    if (!stand) return;
    // Quitting closes the host first, then quits for real.
    stand.appEvents.emit('before-quit', { preventDefault: () => stand.calls.push({ api: 'before-quit.preventDefault', args: [] }) });
    await stand.quitCalled;
    for (const child of stand.children) child.kill();
    await rm(userData, { recursive: true, force: true });
  }, 60_000);

  it('starts without failing', () => {
    expect(stand.calls.filter((c) => c.api === 'app.exit')).toEqual([]);
    expect(stand.calls.map((c) => c.api)).toEqual(expect.arrayContaining(['app.requestSingleInstanceLock', 'app.whenReady']));
  });

  it('hardens the session: permissions refused, the CSP on every response', () => {
    const handler = stand.calls.find((c) => c.api === 'session.setPermissionRequestHandler')!.args[0] as (w: unknown, p: string, cb: (ok: boolean) => void) => void;
    let granted: boolean | undefined;
    handler(undefined, 'geolocation', (ok) => (granted = ok));
    expect(granted).toBe(false);
    const check = stand.calls.find((c) => c.api === 'session.setPermissionCheckHandler')!.args[0] as () => boolean;
    expect(check()).toBe(false);
    const headers = stand.calls.find((c) => c.api === 'session.webRequest.onHeadersReceived')!.args[0] as (
      d: { responseHeaders: Record<string, string[]> },
      cb: (r: { responseHeaders: Record<string, string[]> }) => void,
    ) => void;
    let answered: Record<string, string[]> = {};
    headers({ responseHeaders: {} }, (r) => (answered = r.responseHeaders));
    expect(answered['Content-Security-Policy']?.[0]).toContain("script-src 'self'");
  });

  it('creates one window with the security checklist settings and the bundled preload', () => {
    expect(stand.windows).toHaveLength(1);
    const prefs = stand.windows[0]!.options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
    });
    expect(prefs.preload).toBe(preloadBundle);
    expect(existsSync(prefs.preload as string)).toBe(true);
    // New windows are denied; only allowed links go to the user's browser (checked in the next test).
    const open = stand.calls.find((c) => c.api === 'webContents.setWindowOpenHandler')!.args[0] as (d: { url: string }) => { action: string };
    expect(open({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    expect(stand.calls.filter((c) => c.api === 'webContents.on').map((c) => c.args[0])).toContain('will-navigate');
  });

  it("refuses the page's navigations, any frame's navigation and a redirect, naming each in the log", () => {
    for (const name of ['will-navigate', 'will-frame-navigate', 'will-redirect']) {
      const guards = stand.calls.filter((c) => c.api === 'webContents.on' && c.args[0] === name);
      // One guard per page: the console's window (and any other contents the app creates).
      expect(guards.length, name).toBeGreaterThanOrEqual(1);
      for (const guard of guards) {
        let prevented = false;
        (guard.args[1] as (e: { url: string; preventDefault(): void }) => void)({ url: 'https://evil.example/phish', preventDefault: () => (prevented = true) });
        expect(prevented, name).toBe(true);
      }
    }
  });

  it('hands to the browser only the documentation and the prefixes the active profile adds, never any https URL', async () => {
    const open = stand.calls.find((c) => c.api === 'webContents.setWindowOpenHandler')!.args[0] as (d: { url: string }) => { action: string };
    const opened = () => stand.calls.filter((c) => c.api === 'shell.openExternal').map((c) => c.args[0]);
    for (const url of ['https://docs.itential.com/docs/2022.1', 'https://evil.example/', 'https://docs.itential.com.evil.example/', 'http://docs.itential.com/', 'https://u:p@docs.itential.com/x']) {
      expect(open({ url })).toEqual({ action: 'deny' });
    }
    await waitFor('the documentation link to open', () => (opened().includes('https://docs.itential.com/docs/2022.1') ? true : undefined));
    expect(opened()).toEqual(['https://docs.itential.com/docs/2022.1']);

    // The active profile adds its runbooks' prefix.
    const window = stand.windows[0]!;
    const event = { sender: { id: window.webContents.id, mainFrame: window.webContents.mainFrame }, senderFrame: Object.assign(window.webContents.mainFrame, { url: window.loaded[0] }) };
    const got = (await stand.ipcHandlers.get('op:profiles.get')!(event, { params: { id: 'default' } })) as { ok: boolean; data: { profile: Record<string, unknown> } };
    const { id: _id, ...rest } = got.data.profile;
    const openExternal = ['https://wiki.example.com/runbooks/', 'https://docs.example.com/x'];
    const saved = await stand.ipcHandlers.get('op:profiles.update')!(event, { params: { id: 'default' }, body: { ...rest, desktopProps: { openExternal } } });
    expect(saved).toMatchObject({ ok: true });
    // A prefix is bounded at a path segment and at its host: /x allows /x/page, never /xyz nor docs.example.com.evil.
    for (const url of ['https://wiki.example.com/other', 'https://docs.example.com.evil/x', 'https://docs.example.com/xyz', 'https://docs.example.com.evil.example/x/page']) open({ url });
    open({ url: 'https://wiki.example.com/runbooks/failover' });
    open({ url: 'https://docs.example.com/x/page' });
    await waitFor('the runbook links to open', () => (opened().includes('https://docs.example.com/x/page') && opened().includes('https://wiki.example.com/runbooks/failover') ? true : undefined));
    expect(opened().sort()).toEqual(['https://docs.example.com/x/page', 'https://docs.itential.com/docs/2022.1', 'https://wiki.example.com/runbooks/failover']);
  });

  it("loads the UI from the console's own scheme, never file://, serving only the packaged UI folder", async () => {
    expect(stand.windows[0]!.loaded[0]).toBe('app://console/index.html');
    expect(stand.calls.some((c) => c.api === 'window.loadFile')).toBe(false);
    // The scheme is privileged before the app is ready (Electron refuses it after), handled once it is.
    const apis = stand.calls.map((c) => c.api);
    expect(apis.indexOf('protocol.registerSchemesAsPrivileged')).toBeGreaterThanOrEqual(0);
    expect(apis.indexOf('protocol.registerSchemesAsPrivileged')).toBeLessThan(apis.indexOf('app.whenReady'));
    const serve = stand.protocolHandlers.get('app')!;
    const index = path.join(root, 'dist', 'renderer', 'index.html');
    expect(existsSync(index), `${index} is missing: build the UI first (npm run build)`).toBe(true);
    const page = await serve({ url: 'app://console/index.html' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toBe(await readFile(index, 'utf8'));
    // Nothing outside the UI folder, whatever the URL says.
    for (const url of ['app://console/../../package.json', 'app://console/%2e%2e/%2e%2e/package.json', 'app://console/..%2f..%2fpackage.json', 'app://other/index.html', 'app://console/no-such-file.js']) {
      expect((await serve({ url })).status, url).toBe(404);
    }
  });

  it('registers one IPC handler per contract operation, and the desktop-only PDF save', () => {
    const channels = [...stand.ipcHandlers.keys()];
    expect(channels.filter((c) => c.startsWith('op:')).sort()).toEqual(operationNames.map((n) => `op:${n}`).sort());
    expect(channels.filter((c) => !c.startsWith('op:'))).toEqual(['desktop:drills.savePdf']);
  });

  it('starts the host on the data directory and answers an operation over IPC from the window', async () => {
    const window = stand.windows[0]!;
    const event = {
      sender: { id: window.webContents.id, mainFrame: window.webContents.mainFrame },
      senderFrame: Object.assign(window.webContents.mainFrame, { url: window.loaded[0] }),
    };
    const reply = (await stand.ipcHandlers.get('op:health.status')!(event, {})) as { ok: boolean; data: Record<string, unknown> };
    expect(reply).toMatchObject({ ok: true, data: { release: '2022.1', profile: 'default', store: 'embedded' } });
    expect(existsSync(path.join(userData, 'profiles', 'default', 'properties.json'))).toBe(true);
    // A frame that is not the window's own page is refused.
    const stranger = { ...event, senderFrame: { url: 'https://evil.example/' } };
    expect(await stand.ipcHandlers.get('op:health.status')!(stranger, {})).toMatchObject({ ok: false, error: { statusCode: 403 } });
  });

  it('runs adapters as Electron utility processes', async () => {
    // A new profile has no adapter instance: create one from the shipped example's sample, over IPC.
    const window = stand.windows[0]!;
    const event = { sender: { id: window.webContents.id, mainFrame: window.webContents.mainFrame }, senderFrame: Object.assign(window.webContents.mainFrame, { url: window.loaded[0] }) };
    const sample = (await stand.ipcHandlers.get('op:adapters.sample')!(event, { query: { package: '@automation/adapter-example' } })) as { ok: boolean; data: { data: unknown } };
    expect(sample.ok).toBe(true);
    expect(await stand.ipcHandlers.get('op:adapters.create')!(event, { body: { properties: sample.data.data } })).toMatchObject({ ok: true });
    const forked = await waitFor('an adapter process', () => stand.calls.find((c) => c.api === 'utilityProcess.fork'));
    expect(forked.args[0]).toBe(path.join(root, 'core', 'adapters', 'runner.cjs'));
  });

  it('saves a drill report as PDF where the user picks: the report printed in a hidden window, written atomically', async () => {
    const window = stand.windows[0]!;
    const event = { sender: { id: window.webContents.id, mainFrame: window.webContents.mainFrame }, senderFrame: Object.assign(window.webContents.mainFrame, { url: window.loaded[0] }) };
    // A drill that stops at once (its active site does not answer) still has a report in the history.
    const started = (await stand.ipcHandlers.get('op:drills.startSites')!(event, { body: { active: { url: 'http://127.0.0.1:9', token: 'x' }, standby: { local: true }, jobs: 1 } })) as { ok: boolean; data: { id: string } };
    expect(started.ok).toBe(true);
    const id = started.data.id;
    await waitFor('the drill to end', () => {
      void stand.ipcHandlers.get('op:drills.get')!(event, { params: { id } }).then((r) => ((last = r as typeof last)));
      return last?.data?.status === 'failed' ? true : undefined;
    });
    const save = stand.ipcHandlers.get('desktop:drills.savePdf')!;

    // Cancelled: nothing printed, nothing written.
    expect(await save(event, { id })).toEqual({ ok: true, data: { saved: false } });
    expect(stand.calls.filter((c) => c.api === 'webContents.printToPDF')).toEqual([]);

    const target = path.join(userData, 'reports', 'drill.pdf');
    stand.saveDialogAnswers.push({ canceled: false, filePath: target });
    const reply = (await save(event, { id })) as { ok: boolean; data: { saved: boolean; path: string; bytes: number } };
    expect(reply).toMatchObject({ ok: true, data: { saved: true, path: target } });
    const dialogOptions = stand.calls.filter((c) => c.api === 'dialog.showSaveDialog').at(-1)!.args[0] as { defaultPath: string; filters: unknown };
    expect(path.basename(dialogOptions.defaultPath)).toBe(`dr-drill-${id}.pdf`);
    const bytes = await readFile(target);
    expect(bytes.length).toBe(reply.data.bytes);
    expect(bytes.subarray(0, 8).toString()).toBe('%PDF-1.7');
    // What was printed is the report: its id, its verdict, the site that did not answer.
    expect(bytes.toString()).toContain(`DR drill ${id}`);
    expect(bytes.toString()).toContain('127.0.0.1:9');
    // Printed in a hidden window that runs no script, closed afterwards.
    const hidden = stand.windows.at(-1)!;
    expect(hidden.options).toMatchObject({ show: false, webPreferences: { javascript: false, sandbox: true } });
    expect(stand.calls.map((c) => c.api)).toContain('window.destroy');

    // Not the console window: refused.
    expect(await save({ ...event, senderFrame: { url: 'https://evil.example/' } }, { id })).toMatchObject({ ok: false, error: { statusCode: 403 } });
    // A drill not in the history: 404 naming it.
    expect(await save(event, { id: 'no-such-drill' })).toMatchObject({ ok: false, error: { statusCode: 404, message: expect.stringContaining('no-such-drill') } });
  }, 60_000);
});

describe('the main-process bundle on a runtime with no node:sqlite', () => {
  it('says why in an error box and exits 1, opening no window and writing nothing in its data folder', async () => {
    const userData = await mkdtemp(path.join(os.tmpdir(), 'console-main-no-sqlite-'));
    const hidden = createRequire(import.meta.url)('../hide-sqlite.cjs') as { restore(): void };
    try {
      const stand = standInElectron(userData);
      requireWithElectron(mainBundle, stand.electron);
      stand.ready();
      const exit = await waitFor('the app to exit', () => stand.calls.find((c) => c.api === 'app.exit'));
      expect(exit.args).toEqual([1]);
      const box = stand.calls.find((c) => c.api === 'dialog.showErrorBox')!;
      expect(box.args[0]).toBe('The console cannot start');
      expect(box.args[1]).toContain(`the console cannot run on Node ${process.versions.node}: it has no node:sqlite`);
      expect(box.args[1]).toContain('the console needs Node >= 22.13 with node:sqlite');
      expect(stand.windows).toHaveLength(0);
      expect(await readdir(userData)).toEqual([]);
    } finally {
      hidden.restore();
      await rm(userData, { recursive: true, force: true });
    }
  });
});

describe('the preload bundle', () => {
  it('exposes exactly the operations named by the main process, each invoking its channel', async () => {
    const stand = standInElectron(os.tmpdir());
    const argv = process.argv;
    const processType = (process as { type?: string }).type;
    try {
      process.argv = [...argv, `--console-operations=${operationNames.join(',')}`];
      (process as { type?: string }).type = 'renderer';
      requireWithElectron(preloadBundle, stand.electron);
    } finally {
      process.argv = argv;
      (process as { type?: string }).type = processType;
    }
    const exposed = stand.calls.find((c) => c.api === 'contextBridge.exposeInMainWorld')!;
    expect(exposed.args[0]).toBe('consoleApi');
    const bridge = exposed.args[1] as { operations: Record<string, (input?: unknown) => Promise<unknown>> };
    expect(Object.keys(bridge.operations).sort()).toEqual([...operationNames].sort());
    expect(Object.isFrozen(bridge.operations)).toBe(true);
    await bridge.operations['health.status']!();
    expect(stand.calls.find((c) => c.api === 'ipcRenderer.invoke')?.args).toEqual(['op:health.status', {}]);
  });
});
