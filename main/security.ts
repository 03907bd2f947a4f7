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

/** Navigation away from the bundled page is never allowed (the top frame's, a sub frame's, or a redirect's). */
export function allowNavigation(_targetUrl: string): boolean {
  return false;
}

/** The events that guard a page's navigations: its own, any frame's in it, and a redirect's during one. */
export const NAVIGATION_EVENTS = ['will-navigate', 'will-frame-navigate', 'will-redirect'] as const;

/** Where a link may open in the user's browser: the service's documentation. A profile adds its own (`desktopProps.openExternal`). */
export const EXTERNAL_ALLOWED: readonly string[] = ['https://docs.itential.com/'];

function parsedUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    // Not a URL at all: nothing to open, nothing to allow.
    return undefined;
  }
}

/**
 * Whether a path is a prefix's path or below it, bounded at a path segment: `/runbooks` allows
 * `/runbooks` and `/runbooks/x`, never `/runbooks-old`; `/runbooks/` allows what is below it.
 */
function underPath(pathname: string, prefix: string): boolean {
  if (prefix.endsWith('/')) return pathname.startsWith(prefix);
  return pathname === prefix || pathname.startsWith(`${prefix}/`);
}

/**
 * Whether `url` may be handed to the user's browser: https, no credentials in it, and under one
 * of the allowed prefixes (the same origin, so `https://docs.example.com.evil` is never under
 * `https://docs.example.com/`, and its path below the prefix's path at a segment).
 */
export function allowExternal(url: string, extra: readonly string[] = []): boolean {
  const target = parsedUrl(url);
  if (!target || target.protocol !== 'https:' || target.username || target.password) return false;
  return [...EXTERNAL_ALLOWED, ...extra].some((prefix) => {
    const allowed = parsedUrl(prefix);
    return allowed?.protocol === 'https:' && !allowed.username && !allowed.password && allowed.origin === target.origin && underPath(target.pathname, allowed.pathname);
  });
}

/** The prefixes a profile adds: `desktopProps.openExternal`, a list of https URLs. */
export function profileExternalLinks(profile: unknown): string[] {
  if (typeof profile !== 'object' || profile === null || !('desktopProps' in profile)) return [];
  const desktop: unknown = profile.desktopProps;
  if (typeof desktop !== 'object' || desktop === null || !('openExternal' in desktop) || !Array.isArray(desktop.openExternal)) return [];
  return desktop.openExternal.filter((entry): entry is string => typeof entry === 'string');
}
