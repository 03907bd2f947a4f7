// The preload: exposes exactly the contract's operations to the page, one function
// each, and nothing of Electron itself. Runs sandboxed, so it imports only electron.
import { contextBridge, ipcRenderer } from 'electron';

const OPERATIONS_ARG = '--console-operations=';

/** Main's channel for saving a drill report as PDF (main/pdf.ts SAVE_DRILL_PDF). */
const SAVE_DRILL_PDF = 'desktop:drills.savePdf';

export function buildBridge(names: string[], invoke: (channel: string, input: unknown) => Promise<unknown>) {
  const operations: Record<string, (input?: unknown) => Promise<unknown>> = {};
  for (const name of names) operations[name] = (input) => invoke(`op:${name}`, input ?? {});
  // `desktop` tells the page it runs in the desktop app, with what only the app can do.
  const desktop = Object.freeze({ saveDrillPdf: (id: string) => invoke(SAVE_DRILL_PDF, { id }) });
  return Object.freeze({ operations: Object.freeze(operations), desktop });
}

export function operationNamesFromArgv(argv: string[]): string[] {
  const arg = argv.find((a) => a.startsWith(OPERATIONS_ARG));
  return arg ? arg.slice(OPERATIONS_ARG.length).split(',').filter(Boolean) : [];
}

if (typeof process !== 'undefined' && process.type === 'renderer') {
  contextBridge.exposeInMainWorld(
    'consoleApi',
    buildBridge(operationNamesFromArgv(process.argv), (channel, input) => ipcRenderer.invoke(channel, input)),
  );
}
