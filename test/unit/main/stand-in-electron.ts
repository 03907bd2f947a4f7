// A stand-in for the `electron` module, enough for dist/main/main.cjs and dist/main/preload.cjs
// to run under plain Node: each call is recorded, app.whenReady resolves when the test says so,
// and utilityProcess.fork runs the adapter runner with child_process.fork (as Electron would).
import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import Module from 'node:module';

export interface Call {
  api: string;
  args: unknown[];
}

type IpcListener = (event: unknown, input: unknown) => Promise<unknown>;

export function standInElectron(userData: string) {
  const calls: Call[] = [];
  const record = (api: string, ...args: unknown[]) => void calls.push({ api, args });
  const appEvents = new EventEmitter();
  let ready!: () => void;
  const whenReady = new Promise<void>((resolve) => (ready = resolve));
  const ipcHandlers = new Map<string, IpcListener>();
  const windows: { options: Record<string, unknown>; loaded: string[]; webContents: { id: number; mainFrame: object } }[] = [];
  const children: ChildProcess[] = [];
  /** What the next save dialogs answer (cancelled when none is left). */
  const saveDialogAnswers: { canceled: boolean; filePath?: string }[] = [];
  let quit!: () => void;
  const quitCalled = new Promise<void>((resolve) => (quit = resolve));

  const app = {
    isPackaged: false,
    requestSingleInstanceLock: () => (record('app.requestSingleInstanceLock'), true),
    on: (event: string, listener: (...args: unknown[]) => void) => (record('app.on', event), appEvents.on(event, listener), app),
    whenReady: () => (record('app.whenReady'), whenReady),
    getPath: (name: string) => (record('app.getPath', name), userData),
    getAppPath: () => process.cwd(),
    quit: () => (record('app.quit'), quit()),
    exit: (code: number) => record('app.exit', code),
  };

  class BrowserWindow {
    readonly webContents;
    private readonly entry;
    constructor(options: Record<string, unknown>) {
      record('new BrowserWindow', options);
      this.webContents = {
        id: windows.length + 1,
        mainFrame: {},
        // The listener is kept with the event's name, so a test can fire it (a navigation, a redirect).
        on: (event: string, listener?: unknown) => record('webContents.on', event, listener),
        setWindowOpenHandler: (handler: unknown) => record('webContents.setWindowOpenHandler', handler),
        // Chromium's print to PDF: here a PDF-looking file carrying the text of the page it printed.
        printToPDF: async (options: unknown) => {
          record('webContents.printToPDF', options);
          const page = this.entry.loaded.at(-1) ?? '';
          const html = page.startsWith('data:') ? decodeURIComponent(page.slice(page.indexOf(',') + 1)) : page;
          return Buffer.from(`%PDF-1.7\n% stand-in print of the page:\n${html}\n%%EOF\n`);
        },
      };
      this.entry = { options, loaded: [] as string[], webContents: this.webContents };
      windows.push(this.entry);
      // As Electron: every new page's contents are announced to the app.
      appEvents.emit('web-contents-created', {}, this.webContents);
    }
    once(event: string) {
      record('window.once', event);
    }
    async loadFile(file: string) {
      record('window.loadFile', file);
      this.entry.loaded.push(file);
    }
    async loadURL(url: string) {
      record('window.loadURL', url.slice(0, 30));
      this.entry.loaded.push(url);
    }
    destroy() {
      record('window.destroy');
    }
    show() {}
    isMinimized() {
      return false;
    }
    restore() {}
    focus() {}
  }

  const session = {
    defaultSession: {
      setPermissionRequestHandler: (handler: unknown) => record('session.setPermissionRequestHandler', handler),
      setPermissionCheckHandler: (handler: unknown) => record('session.setPermissionCheckHandler', handler),
      webRequest: { onHeadersReceived: (handler: unknown) => record('session.webRequest.onHeadersReceived', handler) },
    },
  };

  /** The app's schemes: those made privileged, and the handler of each (a test calls it as Chromium would). */
  const protocolHandlers = new Map<string, (request: { url: string }) => Promise<Response>>();
  const protocol = {
    registerSchemesAsPrivileged: (schemes: unknown) => record('protocol.registerSchemesAsPrivileged', schemes),
    handle: (scheme: string, handler: (request: { url: string }) => Promise<Response>) => (record('protocol.handle', scheme), protocolHandlers.set(scheme, handler)),
  };

  const utilityProcess = {
    fork(modulePath: string, args: string[] = [], options: { cwd?: string; env?: Record<string, string | undefined> } = {}) {
      record('utilityProcess.fork', modulePath, options.env?.CONSOLE_ADAPTER_ID);
      const child = fork(modulePath, args, { cwd: options.cwd, env: options.env, execArgv: [], stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
      children.push(child);
      const events = new EventEmitter();
      child.on('spawn', () => events.emit('spawn'));
      child.on('message', (message) => events.emit('message', message));
      child.on('exit', (code) => events.emit('exit', code ?? 1));
      return {
        get pid() {
          return child.pid;
        },
        stdout: child.stdout,
        stderr: child.stderr,
        postMessage: (message: unknown) => void child.send(message as object),
        kill: () => child.kill(),
        on: (event: string, listener: (...a: unknown[]) => void) => events.on(event, listener),
      };
    },
  };

  const electron = {
    app,
    BrowserWindow,
    session,
    protocol,
    utilityProcess,
    ipcMain: { handle: (channel: string, listener: IpcListener) => (record('ipcMain.handle', channel), ipcHandlers.set(channel, listener)) },
    // No keychain on this machine: the console keeps its key file.
    safeStorage: { isEncryptionAvailable: () => (record('safeStorage.isEncryptionAvailable'), false) },
    dialog: {
      showSaveDialog: async (options: unknown) => (record('dialog.showSaveDialog', options), saveDialogAnswers.shift() ?? { canceled: true, filePath: '' }),
      showErrorBox: (title: string, content: string) => record('dialog.showErrorBox', title, content),
    },
    shell: { openExternal: async (url: string) => record('shell.openExternal', url) },
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => record('contextBridge.exposeInMainWorld', key, api) },
    ipcRenderer: { invoke: async (channel: string, input: unknown) => (record('ipcRenderer.invoke', channel, input), { ok: true }) },
  };

  return { electron, calls, appEvents, ready, quitCalled, ipcHandlers, protocolHandlers, windows, children, saveDialogAnswers };
}

/** Loads a CommonJS file with `require('electron')` answered by `electron`; returns its exports. */
export function requireWithElectron(file: string, electron: object): unknown {
  const loader = Module as unknown as { _load(request: string, parent: unknown, isMain: boolean): unknown };
  const original = loader._load;
  loader._load = function (request, parent, isMain) {
    if (request === 'electron') return electron;
    return original.call(this, request, parent, isMain);
  };
  try {
    const require = Module.createRequire(file);
    delete require.cache[file];
    return require(file);
  } finally {
    loader._load = original;
  }
}
