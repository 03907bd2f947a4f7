// "Save as PDF" of a drill report in the desktop app: the report's self-contained HTML is loaded
// into a hidden window (no script, no preload), printed with webContents.printToPDF, and saved
// where the user picks (dialog.showSaveDialog), atomically.
import type { BrowserWindow as ElectronBrowserWindow, BrowserWindowConstructorOptions, IpcMainInvokeEvent, SaveDialogOptions, SaveDialogReturnValue } from 'electron';
import { writeFileAtomic } from '../core/files/atomic';
import { dispatch, errorBody, type Handlers } from '../core/dispatch/dispatch';
import { ConsoleError } from '../core/errors';
import type { Logger } from '../core/logging/logger';
import type { IpcReply } from './ipc';

export const SAVE_DRILL_PDF = 'desktop:drills.savePdf';

type PrintWindow = Pick<ElectronBrowserWindow, 'loadURL' | 'destroy'> & { webContents: Pick<ElectronBrowserWindow['webContents'], 'printToPDF'> };

export interface PdfDeps {
  ipcMain: { handle(channel: string, listener: (event: IpcMainInvokeEvent, input: unknown) => Promise<IpcReply>): void };
  BrowserWindow: new (options: BrowserWindowConstructorOptions) => PrintWindow;
  dialog: { showSaveDialog(options: SaveDialogOptions): Promise<SaveDialogReturnValue> };
  handlers: () => Handlers;
  logger: Logger;
  isTrusted: (event: IpcMainInvokeEvent) => boolean;
  /** Where the save dialog opens (the user's documents). */
  defaultDir: () => string;
}

/** Prints self-contained HTML to PDF bytes in a hidden window that runs no script. */
export async function printHtmlToPdf(BrowserWindow: PdfDeps['BrowserWindow'], html: string): Promise<Buffer> {
  const window = new BrowserWindow({
    show: false,
    webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false, javascript: false, webSecurity: true, spellcheck: false },
  });
  try {
    await window.loadURL(`data:text/html;charset=utf-8,${encodeURIComponent(html)}`);
    return await window.webContents.printToPDF({ printBackground: true, pageSize: 'A4' });
  } finally {
    window.destroy();
  }
}

/** The IPC handler: `{ id }` → `{ saved: false }` (the user cancelled) or `{ saved: true, path, bytes }`. */
export function registerDrillPdf(deps: PdfDeps) {
  deps.ipcMain.handle(SAVE_DRILL_PDF, async (event, input) => {
    try {
      if (!deps.isTrusted(event)) throw new ConsoleError('forbidden', 'saving a PDF refused: the caller is not the console window');
      const id = (input as { id?: unknown } | undefined)?.id;
      if (typeof id !== 'string' || !id) throw new ConsoleError('bad_input', 'id: the drill whose report to save as PDF');
      const file = (await dispatch(deps.handlers(), 'drills.export', { params: { id }, query: { format: 'html' } }, {
        transport: 'ipc',
        caller: 'console window',
        setHeader: () => undefined,
        setStatus: () => undefined,
      })) as { content: string; filename: string };
      const choice = await deps.dialog.showSaveDialog({
        title: 'Save the drill report as PDF',
        defaultPath: `${deps.defaultDir()}/${file.filename.replace(/\.html$/, '.pdf')}`,
        filters: [{ name: 'PDF', extensions: ['pdf'] }],
      });
      if (choice.canceled || !choice.filePath) return { ok: true, data: { saved: false } };
      const pdf = await printHtmlToPdf(deps.BrowserWindow, file.content);
      await writeFileAtomic(choice.filePath, pdf).catch((error: Error) => {
        throw new ConsoleError('conflict', `cannot save the PDF at ${choice.filePath}: ${error.message}; pick another folder`);
      });
      deps.logger.info({ drill: id, path: choice.filePath, bytes: pdf.length }, 'drill report saved as PDF');
      return { ok: true, data: { saved: true, path: choice.filePath, bytes: pdf.length } };
    } catch (error) {
      const body = errorBody(error);
      if (body.statusCode >= 500) deps.logger.error({ err: error }, `saving a drill report as PDF failed: ${body.message}`);
      return { ok: false, error: body };
    }
  });
}
