// The Electron security checklist in one place, as plain data and small functions
// so it can be checked without an Electron binary.
import type { BrowserWindowConstructorOptions } from 'electron';

export const OPERATIONS_ARG = '--console-operations=';

/** Content Security Policy of the window: our own files only, no inline or remote script. */
export const WINDOW_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

export function windowOptions(preloadPath: string, operationNames: readonly string[]): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 820,
    show: false,
    title: 'Automation Console',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      // The preload learns the operation names from here, so it needs no import of the contract.
      additionalArguments: [OPERATIONS_ARG + operationNames.join(',')],
    },
  };
}

/**
 * An IPC message is trusted only when it comes from the main frame of our window
 * showing our own bundled page (never a navigated-away or injected frame).
 */
export function isTrustedSender(
  sender: { senderUrl: string | undefined; isMainFrame: boolean; webContentsId: number },
  trusted: { indexUrl: string; webContentsId: number | undefined },
): boolean {
  if (!sender.senderUrl || !sender.isMainFrame) return false;
  if (trusted.webContentsId === undefined || sender.webContentsId !== trusted.webContentsId) return false;
  const url = new URL(sender.senderUrl);
  const index = new URL(trusted.indexUrl);
  return url.protocol === index.protocol && url.host === index.host && url.pathname === index.pathname;
}

/** Navigation away from the bundled page is never allowed. */
export function allowNavigation(_targetUrl: string): boolean {
  return false;
}
