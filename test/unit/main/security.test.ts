// The Electron security checklist, checked without an Electron binary.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { allowExternal, allowNavigation, isTrustedSender, OPERATIONS_ARG, WINDOW_CSP, windowOptions } from '../../../main/security';
import { appFileFor, INDEX_URL } from '../../../main/app-protocol';
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
  const trusted = { indexUrl: INDEX_URL, webContentsId: 7 };
  const sender = { senderUrl: 'app://console/index.html#/profiles', isMainFrame: true, webContentsId: 7 };

  it('accepts the main frame of our window on our page', () => {
    expect(isTrustedSender(sender, trusted)).toBe(true);
  });
  it('refuses another page, a sub frame, another window, or no URL', () => {
    expect(isTrustedSender({ ...sender, senderUrl: 'https://evil.example/index.html' }, trusted)).toBe(false);
    expect(isTrustedSender({ ...sender, senderUrl: 'file:///tmp/index.html' }, trusted)).toBe(false);
    expect(isTrustedSender({ ...sender, senderUrl: 'file:///app/dist/renderer/index.html' }, trusted)).toBe(false);
    expect(isTrustedSender({ ...sender, senderUrl: 'app://other/index.html' }, trusted)).toBe(false);
    expect(isTrustedSender({ ...sender, isMainFrame: false }, trusted)).toBe(false);
    expect(isTrustedSender({ ...sender, webContentsId: 8 }, trusted)).toBe(false);
    expect(isTrustedSender({ ...sender, senderUrl: undefined }, trusted)).toBe(false);
    expect(isTrustedSender(sender, { ...trusted, webContentsId: undefined })).toBe(false);
  });
});

describe('links handed to the browser', () => {
  const segment = fc.stringMatching(/^[a-z0-9-]{1,8}$/);

  it('allows a prefix and what is below it at a path segment, never a longer segment or another host', () => {
    fc.assert(
      fc.property(segment, segment, fc.stringMatching(/^[a-z0-9-]{1,6}$/), (dir, page, tail) => {
        const prefix = `https://docs.example.com/${dir}`;
        expect(allowExternal(prefix, [prefix])).toBe(true);
        expect(allowExternal(`${prefix}/${page}`, [prefix])).toBe(true);
        expect(allowExternal(`${prefix}/${page}`, [`${prefix}/`])).toBe(true);
        expect(allowExternal(`${prefix}${tail}/${page}`, [prefix])).toBe(false);
        expect(allowExternal(`https://docs.example.com.${tail}/${dir}/${page}`, [prefix])).toBe(false);
        expect(allowExternal(`https://${tail}.docs.example.com/${dir}`, [prefix])).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses http, credentials, and a prefix that is not https', () => {
    expect(allowExternal('http://docs.itential.com/x')).toBe(false);
    expect(allowExternal('https://u:p@docs.itential.com/x')).toBe(false);
    expect(allowExternal('http://wiki.example.com/a', ['http://wiki.example.com/'])).toBe(false);
    expect(allowExternal('https://docs.itential.com/docs/2022.1')).toBe(true);
  });
});

describe("the console's own scheme", () => {
  const root = '/app/dist/renderer';
  it('names a file of the UI folder, and nothing outside it or of another host', () => {
    expect(appFileFor(INDEX_URL, root)).toBe('/app/dist/renderer/index.html');
    expect(appFileFor('app://console/', root)).toBe('/app/dist/renderer/index.html');
    expect(appFileFor('app://console/assets/index-1.js?v=1#x', root)).toBe('/app/dist/renderer/assets/index-1.js');
    // The URL parser resolves dot segments, escaped ones too, before the path is read: they stay in the folder.
    expect(appFileFor('app://console/%2e%2e/%2e%2e/secret', root)).toBe('/app/dist/renderer/secret');
    for (const url of ['app://console/..%2F..%2Fetc/passwd', 'app://console/a%00b', 'app://console/%E0%A4%A', 'app://evil/index.html', 'file:///app/dist/renderer/index.html', 'not a url']) {
      expect(appFileFor(url, root), url).toBeUndefined();
    }
  });
});
