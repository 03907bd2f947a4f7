// Electron main process: one hardened window over the bundled UI, the host started
// in this process (the REST API stays available to scripts and custom applications).
import path from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, protocol, safeStorage, session, shell, utilityProcess, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { safeStorageProvider } from './safe-storage';
import { desktopDataDir } from './data-dir';
import { utilityProcessLauncher } from '../core/adapters';
import { operationNames } from '../core/contract';
import { startHost, type Host } from '../core/host/host';
import { registerOperations } from './ipc';
import { registerDrillPdf } from './pdf';
import { allowExternal, allowNavigation, isTrustedSender, profileExternalLinks, WINDOW_CSP, windowOptions } from './security';
import { APP_SCHEME, APP_SCHEME_PRIVILEGES, appProtocolHandler, INDEX_URL } from './app-protocol';

const here = __dirname; // dist/main once bundled
// The bundled UI, served as app://console/ (main/app-protocol.ts), never as file://.
const rendererDir = path.join(here, '..', 'renderer');
const indexUrl = INDEX_URL;

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
  contents.setWindowOpenHandler(({ url }) => {
    // Never a new Electron window; the documentation and what the active profile allows open in the user's browser.
    void openExternally(url);
    return { action: 'deny' };
  });
  window.once('ready-to-show', () => window?.show());
  void window.loadURL(indexUrl);
}

/** Every page stays where it was loaded: its navigations, any of its frames', and redirects are refused, and logged. */
function guardNavigation(contents: WebContents) {
  const refuse = (event: { url: string; preventDefault(): void }, what: string) => {
    if (allowNavigation(event.url)) return;
    event.preventDefault();
    host?.log.logger.warn({ url: event.url }, `${what} to ${event.url} was refused: the console's window never leaves its own page`);
  };
  contents.on('will-navigate', (event) => refuse(event, 'a navigation'));
  contents.on('will-frame-navigate', (event) => refuse(event, "a frame's navigation"));
  contents.on('will-redirect', (event) => refuse(event, 'a redirect'));
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
    guardNavigation(contents);
  });
  // The UI's own scheme is privileged before the app is ready, and answered once it is.
  protocol.registerSchemesAsPrivileged(APP_SCHEME_PRIVILEGES);
  await app.whenReady();
  protocol.handle(APP_SCHEME, appProtocolHandler(rendererDir));
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
