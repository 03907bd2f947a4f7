// Helpers of the adapter tests: the fixtures folder, the corpus adapter package (read where it
// is), a local inventory service, and polling until a condition holds.
import http from 'node:http';
import path from 'node:path';
import { CORPUS_DIR, FIXTURES_DIR } from '../support/iap';

export const FIXTURES = path.resolve(import.meta.dirname, 'fixtures');
export const INVENTORY = path.join(FIXTURES, 'adapter-inventory');
/** The corpus's real adapter package (data files only), absent from a clone of the project alone. */
export const TUFIN = path.join(CORPUS_DIR, 'adapters', 'adapter-tufin_securetrack');
/** The project's own package of the same kind (test/fixtures/iap). */
export const CHANGE_DESK = path.join(FIXTURES_DIR, 'adapters', 'adapter-change_desk');

/** Polls `probe` until it returns a truthy value; fails with the last value after `timeoutMs`. */
type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;

export async function waitFor<T>(probe: () => Promise<T> | T, what: string, timeoutMs = 15_000): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await probe();
    if (last) return last as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A small inventory service the test adapter talks to: GET /health, GET and PUT /devices/:name. */
export async function startInventoryServer() {
  const devices = new Map<string, Record<string, unknown>>([['core-1', { name: 'core-1', os: 'junos' }]]);
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.url === '/health') return send(200, { ok: true });
      const match = /^\/devices\/([^/]+)$/.exec(req.url ?? '');
      const name = match && decodeURIComponent(match[1]!);
      if (!name) return send(404, { error: 'no such route' });
      if (req.method === 'PUT') {
        devices.set(name, { ...(devices.get(name) ?? { name }), ...JSON.parse(text || '{}') });
        return send(200, devices.get(name));
      }
      const device = devices.get(name);
      return device ? send(200, device) : send(404, { error: `no device ${name}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { port, devices, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
