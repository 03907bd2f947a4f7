// The service's logins on a real console host: `?token=`, `POST /login` (a session, its cookie),
// `POST /oauth/token` (client credentials), each refusing a wrong secret with a 401 that tells
// nothing more, and bad input with a 400 naming the field; the token in a URL is in no log line.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';
import { createLogService } from '../../core/logging/logger';
import { logSettings } from '../../core/profiles/runtime-config';
import { scanFolder } from '../../core/upgrade';

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});
const json = (value: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(value),
});

describe('the service logins', () => {
  let host: TestHost;
  /** fetch without the test host's bearer header. */
  const bare = (pathname: string, init: RequestInit = {}) => fetch(host.url + pathname, init);
  const login = (username: string, password: string) => bare('/login', json({ user: { username, password } }));

  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(() => host?.dispose());

  describe('?token=', () => {
    it('the console token as a query parameter opens every route, as the Bearer header does', async () => {
      const answer = await bare(`/health/status?token=${host.token}`);
      expect(answer.status).toBe(200);
      expect((await answer.json()) as object).toHaveProperty('serverId');
      // An operation whose query the contract checks does not see the parameter.
      expect((await bare(`/operations-manager/jobs?limit=5&token=${host.token}`)).status).toBe(200);
    });

    it('a wrong one is 401, and the answer does not repeat what was sent', async () => {
      const answer = await bare('/health/status?token=not-the-token-1234');
      expect(answer.status).toBe(401);
      const text = await answer.text();
      expect(text).not.toContain('not-the-token-1234');
      expect(JSON.parse(text)).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    });
  });

  describe('POST /login', () => {
    it('admin with the token as password: the session token as text, and a session cookie (HttpOnly, SameSite=Strict)', async () => {
      const answer = await login('admin', host.token);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      const session = await answer.text();
      expect(session).toMatch(/^[A-Za-z0-9+/]+=*$/);
      expect(session).not.toContain(host.token);
      const cookie = answer.headers.get('set-cookie') ?? '';
      expect(cookie).toMatch(new RegExp(`^token=${encodeURIComponent(session)};`));
      expect(cookie).toContain('HttpOnly');
      expect(cookie).toContain('SameSite=Strict');
      expect(cookie).toContain('Path=/');

      // The answer as ?token= (clients that use it as it is), and decoded (clients that decode it first).
      expect((await bare(`/health/status?token=${encodeURIComponent(session)}`)).status).toBe(200);
      const decoded = Buffer.from(session, 'base64').toString('utf8');
      expect((await bare(`/health/status?token=${decoded}`)).status).toBe(200);
      // The cookie, as a browser or a client with a cookie jar sends it back.
      expect((await bare('/health/status', { headers: { cookie: `token=${encodeURIComponent(session)}` } })).status).toBe(200);
      // A session is not the token: it does not open the Bearer form, which is the token's and access tokens'.
      expect((await bare('/health/status', { headers: { authorization: `Bearer ${session}` } })).status).toBe(401);
    });

    it('the cookie sent by a page of another origin proves nothing', async () => {
      const session = await (await login('admin', host.token)).text();
      const cookie = `token=${encodeURIComponent(session)}`;
      const port = new URL(host.url).port;
      expect((await bare('/health/status', { headers: { cookie, origin: 'http://evil.example' } })).status).toBe(401);
      expect((await bare('/health/status', { headers: { cookie, origin: `http://127.0.0.1:${Number(port) + 1}` } })).status).toBe(401);
      expect((await bare('/health/status', { headers: { cookie, origin: host.url } })).status).toBe(200);
    });

    it('a wrong password or a wrong user: the same 401, naming neither', async () => {
      const wrongPassword = await login('admin', 'guess-1234567');
      const wrongUser = await login('root', host.token);
      expect(wrongPassword.status).toBe(401);
      expect(wrongUser.status).toBe(401);
      const a = (await wrongPassword.json()) as { message: string };
      const b = (await wrongUser.json()) as { message: string };
      expect(a.message).toBe(b.message);
      expect(a.message).not.toContain('guess-1234567');
      expect(b.message).not.toContain(host.token);
      expect(b.message).not.toContain('root');
      expect(wrongPassword.headers.get('set-cookie')).toBeNull();
    });

    it("the vendor's newer guides' body, { username, password }, logs in the same way; a wrong password is the same 401", async () => {
      const answer = await bare('/login', json({ username: 'admin', password: host.token }));
      expect(answer.status).toBe(200);
      expect((await bare(`/health/status?token=${encodeURIComponent(await answer.text())}`)).status).toBe(200);
      expect((await bare('/login', json({ username: 'admin', password: 'wrong' }))).status).toBe(401);
    });

    it('bad input is a 400 naming the field', async () => {
      const cases: [unknown, string][] = [
        [{}, 'body.user'],
        [{ user: 'admin' }, 'body.user'],
        [{ user: { password: 'x' } }, 'body.user.username'],
        [{ user: { username: 'admin' } }, 'body.user.password'],
        [{ user: { username: 'admin', password: 42 } }, 'body.user.password'],
        [{ username: 'admin' }, 'body.password'],
        [['admin'], 'body'],
      ];
      for (const [body, field] of cases) {
        const answer = await bare('/login', json(body));
        expect(answer.status, JSON.stringify(body)).toBe(400);
        const error = (await answer.json()) as { message: string; issues: { path: string }[] };
        expect(error.issues[0]?.path, JSON.stringify(body)).toBe(field);
      }
      expect((await bare('/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"user":' })).status).toBe(400);
      expect((await bare('/login', form({ username: 'admin', password: host.token }))).status).toBe(415);
    });

    it('a body larger than a login needs is refused before it is read whole: 413, for a caller without a credential', async () => {
      const padding = 'x'.repeat(65 * 1024);
      for (const [route, init] of [
        ['/login', json({ user: { username: 'admin', password: padding } })],
        ['/oauth/token', form({ grant_type: 'client_credentials', client_id: 'a', client_secret: padding })],
      ] as const) {
        const answer = await bare(route, init);
        expect(answer.status, route).toBe(413);
        expect(((await answer.json()) as { message: string }).message).toBe('body: larger than 64 KB, the most one request to this route may carry');
      }
    });

    it('GET /logout ends the session', async () => {
      const session = await (await login('admin', host.token)).text();
      const byQuery = `/health/status?token=${encodeURIComponent(session)}`;
      expect((await bare(byQuery)).status).toBe(200);
      const out = await bare(`/logout?token=${encodeURIComponent(session)}`);
      expect(out.status).toBe(200);
      expect(out.headers.get('set-cookie')).toMatch(/^token=; .*Max-Age=0/);
      expect((await bare(byQuery)).status).toBe(401);
      // A session already ended (or never made) is no error to log out of: nothing is said of it.
      expect((await bare(`/logout?token=${encodeURIComponent(session)}`)).status).toBe(200);
    });

    it('only the logins and the logout answer without a credential', async () => {
      expect((await bare('/login')).status).toBe(401);
      expect((await bare('/oauth/token')).status).toBe(401);
      expect((await bare('/logout', { method: 'POST' })).status).toBe(401);
    });
  });

  describe('POST /oauth/token', () => {
    it('client credentials with the token as secret: a short-lived access token, used as Bearer', async () => {
      const answer = await bare('/oauth/token', form({ grant_type: 'client_credentials', client_id: 'ci-runner', client_secret: host.token }));
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      const issued = (await answer.json()) as { access_token: string; token_type: string; expires_in: number };
      expect(issued).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600 });
      expect(issued.access_token).not.toBe(host.token);
      expect((await bare('/health/status', { headers: { authorization: `Bearer ${issued.access_token}` } })).status).toBe(200);
      expect((await bare(`/health/status?token=${issued.access_token}`)).status).toBe(200);
    });

    it('a wrong secret is 401 invalid_client, telling nothing more', async () => {
      const answer = await bare('/oauth/token', form({ grant_type: 'client_credentials', client_id: 'ci-runner', client_secret: 'guess-abcdefgh' }));
      expect(answer.status).toBe(401);
      const text = await answer.text();
      expect(text).not.toContain('guess-abcdefgh');
      expect(JSON.parse(text)).toMatchObject({ statusCode: 401, message: expect.stringContaining('invalid_client') });
    });

    it('bad input is a 400 naming the field', async () => {
      const cases: [Record<string, string>, string][] = [
        [{ client_id: 'a', client_secret: host.token }, 'body.grant_type'],
        [{ grant_type: 'password', client_id: 'a', client_secret: host.token }, 'body.grant_type'],
        [{ grant_type: 'client_credentials', client_secret: host.token }, 'body.client_id'],
        [{ grant_type: 'client_credentials', client_id: 'a' }, 'body.client_secret'],
      ];
      for (const [fields, field] of cases) {
        const answer = await bare('/oauth/token', form(fields));
        expect(answer.status, JSON.stringify(fields)).toBe(400);
        const error = (await answer.json()) as { issues: { path: string }[]; message: string };
        expect(error.issues[0]?.path).toBe(field);
        expect(error.message).not.toContain(host.token);
      }
    });

    it('form-encoded bodies are read for this route only: any other still answers 415', async () => {
      const answer = await bare('/workflows', { ...form({ name: 'x' }), headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${host.token}` } });
      expect(answer.status).toBe(415);
    });
  });

  describe('the token in a URL is in no log line and no finding', () => {
    it('requests with ?token= (answered 200, 401, 404, 410) leave the log file, GET /logs and the deprecated-call findings without it', async () => {
      const wrong = 'wrong-secret-ZZ9-plural-z-alpha';
      const session = await (await login('admin', host.token)).text();
      for (const url of [
        `/health/status?token=${host.token}`,
        `/health/status?token=${wrong}`,
        `/no-such-route?token=${host.token}`,
        `/admin/services/health?token=${host.token}`,
        `/health/status?x=1&token=${encodeURIComponent(session)}`,
      ]) {
        await bare(url);
      }
      const logs = await (await host.api('/logs?limit=1000&level=trace')).text();
      const file = await readFile(path.join(host.dataDir, 'logs', 'console.log'), 'utf8');
      const findings = await (await host.api('/health/deprecated-calls')).text();
      expect(file).toContain('/no-such-route');
      for (const secret of [host.token, wrong, session, encodeURIComponent(session)]) {
        expect(logs).not.toContain(secret);
        expect(file).not.toContain(secret);
        expect(findings).not.toContain(secret);
      }
      expect(findings).toContain('/admin/services/health');
    });
  });
});

describe('?token= in any other log line', () => {
  it('is masked by the logger wherever a URL carrying it is logged (a message, a field, a nested value)', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-login-log-'));
    const service = createLogService({ dataDir });
    service.configure(logSettings(dataDir, undefined));
    try {
      const secret = 'Zq8-secret-token-value';
      service.logger.info({ url: `http://svc:3000/health/server?token=${secret}`, call: { target: `/jobs?limit=5&token=${secret}` } }, `calling http://svc:3000/workflow_engine/job/1/details?token=${secret}`);
      const { results } = service.ring.query({});
      expect(results).toHaveLength(1);
      const entries = JSON.stringify(results);
      const file = await readFile(path.join(dataDir, 'logs', 'console.log'), 'utf8');
      expect(file).toContain('/health/server?token=********');
      for (const text of [entries, file]) expect(text).not.toContain(secret);
    } finally {
      service.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('?token= in an upgrade-check finding', () => {
  it('is masked where the finding quotes the call', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'console-login-scan-'));
    try {
      const secret = 'Kp3-site-token-in-code';
      await mkdir(path.join(dir, 'src'));
      await writeFile(path.join(dir, 'src', 'poll.js'), `async function poll() {\n  return fetch('http://iap:3000/admin/services/health?token=${secret}');\n}\nmodule.exports = { poll };\n`);
      const report = await scanFolder(dir);
      const found = report.findings.filter((f) => f.rule === 'api-call');
      expect(found.map((f) => `${f.file}:${f.line}`)).toEqual(['src/poll.js:2']);
      expect(found[0]?.message).toContain('/admin/services/health?token=********');
      expect(JSON.stringify(report)).not.toContain(secret);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
