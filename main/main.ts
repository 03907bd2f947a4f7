// Electron main process: one hardened window over the bundled UI, the host started
// in this process (the REST API stays available to scripts and custom applications).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, safeStorage, session, shell, utilityProcess, type IpcMainInvokeEvent } from 'electron';
import { safeStorageProvider } from './safe-storage';
import { desktopDataDir } from './data-dir';
import { utilityProcessLauncher } from '../core/adapters';
import { operationNames } from '../core/contract';
import { startHost, type Host } from '../core/host/host';
import { registerOperations } from './ipc';
import { registerDrillPdf } from './pdf';
import { allowExternal, allowNavigation, isTrustedSender, profileExternalLinks, WINDOW_CSP, windowOptions } from './security';

const here = __dirname; // dist/main once bundled
const indexFile = path.join(here, '..', 'renderer', 'index.html');
const indexUrl = pathToFileURL(indexFile).href;

let host: Host | undefined;
let window: BrowserWindow | undefined;

function hardenSession() {
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [WINDOW_CSP] } });
  });
}

function createWindow() {
  window = new BrowserWindow(windowOptions(path.join(here, 'preload.cjs'), operationNames));
  const contents = window.webContents;
  contents.on('will-navigate', (event, url) => {
    if (!allowNavigation(url)) event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    // Never a new Electron window; the documentation and what the active profile allows open in the user's browser.
    void openExternally(url);
    return { action: 'deny' };
  });
  window.once('ready-to-show', () => window?.show());
  void window.loadFile(indexFile);
}

/** Hands `url` to the user's browser when it is allowed (allowExternal), else says why in the log. */
async function openExternally(url: string) {
  const extra = host ? await activeProfileLinks(host) : [];
  if (allowExternal(url, extra)) return shell.openExternal(url);
  host?.log.logger.warn({ url }, `a link to ${url} was not opened: not under an allowed prefix (the profile's desktopProps.openExternal adds to them)`);
}

async function activeProfileLinks(running: Host): Promise<string[]> {
  const ctx = { transport: 'ipc' as const, caller: 'console', setHeader: () => undefined, setStatus: () => undefined };
  try {
    const list = await running.handlers['profiles.list']({ params: undefined, query: undefined, body: undefined }, ctx);
    return profileExternalLinks(list.results.find((entry) => entry.metadata.isActive)?.profile);
  } catch (error) {
    running.log.logger.warn({ err: error }, `the profile's allowed links cannot be read: only the documentation opens (${error instanceof Error ? error.message : String(error)})`);
    return [];
  }
}

async function main() {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  app.on('second-instance', () => {
    if (window?.isMinimized()) window.restore();
    window?.focus();
  });
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
  await app.whenReady();
  hardenSession();
  const keychain = safeStorageProvider(safeStorage);
  host = await startHost({
    dataDir: desktopDataDir(() => app.getPath('userData')),
    port: 0,
    logToConsole: true,
    // With the runAsNode fuse off, adapters run as Electron utility processes instead of forked Node.
    adapterLauncher: utilityProcessLauncher(utilityProcess),
    // The adapter runner and shipped adapters are unpacked beside the archive (electron-builder.yml asarUnpack).
    productDir: app.isPackaged === true ? app.getAppPath().replace(/app\.asar$/, 'app.asar.unpacked') : undefined,
    // New secrets are sealed by the OS keychain where it is available.
    secretProvider: keychain ?? undefined,
  });
  console.log(`Console API listening on ${host.url}`);
  const isTrusted = (event: IpcMainInvokeEvent) =>
    isTrustedSender(
      { senderUrl: event.senderFrame?.url, isMainFrame: event.senderFrame === event.sender.mainFrame, webContentsId: event.sender.id },
      { indexUrl, webContentsId: window?.webContents.id },
    );
  registerOperations(ipcMain, () => host!.handlers, host.log.logger, isTrusted);
  // A drill report saved as PDF (Electron's print to PDF): desktop only.
  registerDrillPdf({ ipcMain, BrowserWindow, dialog, handlers: () => host!.handlers, logger: host.log.logger, isTrusted, defaultDir: () => app.getPath('documents') });
  createWindow();
  app.on('window-all-closed', () => app.quit());
  let closing = false;
  app.on('before-quit', (event) => {
    // The host closes first (the task worker hands its tasks back, the store flushes), then the app quits.
    if (closing || !host) return;
    closing = true;
    event.preventDefault();
    host
      .close()
      .catch((error: Error) => host?.log.logger.error({ err: error }, `closing the console failed: ${error.message}`))
      .finally(() => app.quit());
  });
}

main().catch((error: Error) => {
  console.error(`Console failed to start: ${error.stack ?? error.message}`);
  // Started from an installer there is no terminal: the desktop says why before it exits.
  dialog.showErrorBox('The console cannot start', error.message);
  app.exit(1);
});
