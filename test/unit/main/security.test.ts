// The Electron security checklist, checked without an Electron binary.
import { describe, expect, it } from 'vitest';
import { allowNavigation, isTrustedSender, OPERATIONS_ARG, WINDOW_CSP, windowOptions } from '../../../main/security';
import { operationNames } from '../../../core/contract';

describe('the console window', () => {
  const options = windowOptions('/app/dist/main/preload.cjs', operationNames);
  const prefs = options.webPreferences!;

  it('isolates the page from Node and Electron', () => {
    expect(prefs.contextIsolation).toBe(true);
    expect(prefs.sandbox).toBe(true);
    expect(prefs.nodeIntegration).toBe(false);
    expect(prefs.nodeIntegrationInSubFrames).toBe(false);
    expect(prefs.webSecurity).toBe(true);
    expect(prefs.allowRunningInsecureContent).toBe(false);
    expect(prefs.webviewTag).toBe(false);
  });

  it('passes the operation names to the preload, and nothing else', () => {
    expect(prefs.additionalArguments).toEqual([OPERATIONS_ARG + operationNames.join(',')]);
    expect(prefs.preload).toBe('/app/dist/main/preload.cjs');
  });

  it('has a strict Content Security Policy: no inline or remote script, no framing', () => {
    expect(WINDOW_CSP).toContain("default-src 'self'");
    expect(WINDOW_CSP).toContain("script-src 'self';");
    expect(WINDOW_CSP).not.toContain('unsafe-eval');
    expect(WINDOW_CSP).toContain("object-src 'none'");
    expect(WINDOW_CSP).toContain("frame-ancestors 'none'");
  });

  it('denies every navigation away from the bundled page', () => {
    expect(allowNavigation('https://example.com/')).toBe(false);
    expect(allowNavigation('file:///etc/passwd')).toBe(false);
  });
});

describe('the IPC sender check', () => {
  const trusted = { indexUrl: 'file:///app/dist/renderer/index.html', webContentsId: 7 };
  const sender = { senderUrl: 'file:///app/dist/renderer/index.html#/profiles', isMainFrame: true, webContentsId: 7 };

  it('accepts the main frame of our window on our page', () => {
    expect(isTrustedSender(sender, trusted)).toBe(true);
  });
  it('refuses another page, a sub frame, another window, or no URL', () => {
    expect(isTrustedSender({ ...sender, senderUrl: 'https://evil.example/index.html' }, trusted)).toBe(false);
    expect(isTrustedSender({ ...sender, senderUrl: 'file:///tmp/index.html' }, trusted)).toBe(false);
    expect(isTrustedSender({ ...sender, isMainFrame: false }, trusted)).toBe(false);
    expect(isTrustedSender({ ...sender, webContentsId: 8 }, trusted)).toBe(false);
    expect(isTrustedSender({ ...sender, senderUrl: undefined }, trusted)).toBe(false);
    expect(isTrustedSender(sender, { ...trusted, webContentsId: undefined })).toBe(false);
  });
});
