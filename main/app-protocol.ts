// The window's page is served from the console's own scheme (`app://console/...`), never from
// `file://`: a file URL's origin is every file of the machine, so a page that navigated or was
// injected there could read any of them; `app://console` is one origin that serves only the
// bundled UI folder. Plain data and small functions, checked without an Electron binary.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { WINDOW_CSP } from './security';

export const APP_SCHEME = 'app';
export const APP_HOST = 'console';
/** The URL the window loads. */
export const INDEX_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/** The scheme's privileges (`protocol.registerSchemesAsPrivileged`, before the app is ready): a standard, secure origin. */
export const APP_SCHEME_PRIVILEGES = [{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }];

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/** The file of `root` an `app://console/...` URL names; undefined for another host or scheme, or a path that leaves `root`. */
export function appFileFor(url: string, root: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL: nothing to serve.
    return undefined;
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return undefined;
  let pathname: string;
  try {
    pathname = decodeURIComponent(parsed.pathname);
  } catch {
    // A malformed escape (`%E0%A4%A`): not a file of ours.
    return undefined;
  }
  if (pathname.includes('\0')) return undefined;
  const base = path.resolve(root);
  const file = path.resolve(base, `.${pathname === '/' ? '/index.html' : pathname}`);
  return file.startsWith(base + path.sep) ? file : undefined;
}

/** The `protocol.handle` handler of the scheme: the bundled UI's files, with the window's CSP; 404 for anything else. */
export function appProtocolHandler(root: string) {
  return async (request: { url: string }): Promise<Response> => {
    const file = appFileFor(request.url, root);
    const notFound = () => new Response('not found', { status: 404, headers: { 'content-type': 'text/plain' } });
    if (!file) return notFound();
    try {
      const body = await readFile(file);
      const headers = { 'content-type': TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream', 'content-security-policy': WINDOW_CSP };
      return new Response(new Uint8Array(body), { status: 200, headers });
    } catch (error) {
      // A folder or a missing file: the page asked for what the bundle does not hold.
      if (error instanceof Error && 'code' in error && (error.code === 'ENOENT' || error.code === 'EISDIR')) return notFound();
      throw error;
    }
  };
}
