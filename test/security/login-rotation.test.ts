// Sessions and access tokens are the token's: they end when it is rotated (in the process, and by the
// documented rotation: a restart with a new token), and when their time is up.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildHttpServer } from '../../core/http/server';
import { ACCESS_TOKEN_SECONDS, Logins, SESSION_IDLE_MS } from '../../core/http/logins/credentials';
import type { Handlers } from '../../core/dispatch/dispatch';
import { startTestHost } from '../support/host';
import { startHost } from '../../core/host/host';

const handlers = new Proxy({}, { get: () => () => ({ ok: true }) }) as unknown as Handlers;

describe('rotating the token', () => {
  it('in the process: every session and access token made under the old token is refused, and the old token too', async () => {
    const logins = new Logins('first-token-abcdef');
    const app = await buildHttpServer({ handlers, token: 'first-token-abcdef', logins });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    // The console serves its own name only (docs/security.md): injected requests name it.
    const host = `127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const session = (await app.inject({ method: 'POST', url: '/login', headers: { host }, payload: { user: { username: 'admin', password: 'first-token-abcdef' } } })).body;
    const access = (
      await app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: { host, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'grant_type=client_credentials&client_id=a&client_secret=first-token-abcdef',
      })
    ).json<{ access_token: string }>().access_token;
    const status = async (init: { url: string; headers?: Record<string, string> }) => (await app.inject({ method: 'GET', url: init.url, headers: { host, ...init.headers } })).statusCode;
    const bySession = { url: `/health/status?token=${encodeURIComponent(session)}` };
    const byCookie = { url: '/health/status', headers: { cookie: `token=${encodeURIComponent(session)}` } };
    const byAccess = { url: '/health/status', headers: { authorization: `Bearer ${access}` } };
    for (const way of [bySession, byCookie, byAccess]) expect(await status(way)).toBe(200);

    logins.rotate('second-token-ghijkl');
    for (const way of [bySession, byCookie, byAccess]) expect(await status(way)).toBe(401);
    expect(await status({ url: '/health/status?token=first-token-abcdef' })).toBe(401);
    expect(await status({ url: '/health/status?token=second-token-ghijkl' })).toBe(200);
    const oldPassword = await app.inject({ method: 'POST', url: '/login', headers: { host }, payload: { user: { username: 'admin', password: 'first-token-abcdef' } } });
    expect(oldPassword.statusCode).toBe(401);
    await app.close();
  });

  it('by a restart with a new token (docs/security.md): the old session and access token are refused', async () => {
    const first = await startTestHost();
    const { dataDir } = first;
    const session = await (await fetch(`${first.url}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ user: { username: 'admin', password: first.token } }) })).text();
    const access = ((await (await fetch(`${first.url}/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'a', client_secret: first.token }) })).json()) as { access_token: string }).access_token;
    await first.close();
    const second = await startHost({ dataDir, port: 0, token: 'rotated-token-0987654321' });
    try {
      expect((await fetch(`${second.url}/health/status?token=${encodeURIComponent(session)}`)).status).toBe(401);
      expect((await fetch(`${second.url}/health/status`, { headers: { authorization: `Bearer ${access}` } })).status).toBe(401);
      expect((await fetch(`${second.url}/health/status?token=${first.token}`)).status).toBe(401);
      const relogin = await fetch(`${second.url}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ user: { username: 'admin', password: 'rotated-token-0987654321' } }) });
      expect(relogin.status).toBe(200);
    } finally {
      await second.close();
      await first.dispose();
    }
  });
});

describe('the lifetimes', () => {
  it('an access token ends after expires_in seconds, used or not', () => {
    let now = 1_000_000;
    const logins = new Logins('the-token-123456', () => now);
    const { access_token: token } = logins.issueAccessToken('the-token-123456')!;
    now += ACCESS_TOKEN_SECONDS * 1000 - 1;
    expect(logins.bearer(token)).toBe('access-token');
    now += 1;
    expect(logins.bearer(token)).toBeUndefined();
  });

  it('a session ends after an idle hour; each use extends it', () => {
    let now = 5_000_000;
    const logins = new Logins('the-token-123456', () => now);
    const session = logins.login('admin', 'the-token-123456')!;
    now += SESSION_IDLE_MS - 1;
    expect(logins.isSession(session)).toBe(true);
    now += SESSION_IDLE_MS - 1;
    expect(logins.isSession(session)).toBe(true);
    now += SESSION_IDLE_MS;
    expect(logins.isSession(session)).toBe(false);
  });

  it('at most a thousand live sessions are kept: a flood of logins cannot grow memory without bound', () => {
    const logins = new Logins('the-token-123456');
    for (let i = 0; i < 1200; i += 1) logins.login('admin', 'the-token-123456');
    expect(logins.counts().sessions).toBe(1000);
  });
});

describe('nothing but the token logs in', () => {
  it('any other password, client secret or ?token= is refused (property)', () => {
    const token = 'the-console-token-Qx7';
    const logins = new Logins(token);
    fc.assert(
      fc.property(
        fc.string({ maxLength: 64 }).filter((s) => s !== token),
        (guess) => {
          expect(logins.login('admin', guess)).toBeUndefined();
          expect(logins.issueAccessToken(guess)).toBeUndefined();
          expect(logins.queryToken(guess)).toBeUndefined();
          expect(logins.bearer(guess)).toBeUndefined();
        },
      ),
    );
    expect(logins.counts()).toEqual({ sessions: 0, accessTokens: 0 });
  });
});
