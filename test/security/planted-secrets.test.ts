// Secrets of every shape the fault probe planted (issue 40): session cookies, Set-Cookie,
// X-Session-Id, a JWT in a `jwt` field and JWT-shaped values anywhere, session ids, SNMP community
// strings, OTP, client_assertion, `password2=` in a form body, `session=` in text, and the older
// shapes. One classifier masks them wherever the console shows or keeps them: a recording (recorded,
// imported, exported), the simulated instance made from it (its config and its export), an
// upgrade finding, a log entry and an error message.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskInText, redactSecrets, redactText } from '../../core/secrets/classify';
import { maskSecrets } from '../../core/profiles/secrets';
import { finding } from '../../core/upgrade/types';
import { startTestHost, type TestHost } from '../support/host';

const jwt = (n: number) => `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJwbGFudGVkLSR7bn0ifQ.sig-planted-${n}`;

/** Each planted value is unique, so finding it anywhere in an answer means it leaked. */
export const PLANTED = {
  args: {
    password: 'pl-pass-01',
    headers: { Cookie: 'session=pl-cookie-04; theme=dark', Authorization: 'Bearer pl-bearer-22xyz' },
    community: 'pl-community-10',
    snmp: { readCommunity: 'pl-community-11', version: '2c' },
    otp: 'pl-otp-12',
    totp: 482913,
    client_assertion: 'pl-assertion-14',
    client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    body: 'user=op&password2=pl-form-15&x=1',
    apiKey: 'pl-apikey-18',
    url: 'https://op:pl-urlpw-20@h.example/x',
    query: '/x?sessionid=pl-sess-21&y=2',
  },
  answer: {
    headers: { 'set-cookie': ['SESSION=pl-cookie-02; Path=/; HttpOnly'], 'Set-Cookie': 'sid=pl-cookie-03; Secure', 'X-Session-Id': 'pl-xsess-05' },
    jwt: jwt(6),
    note: `the device answered with ${jwt(7)} in its banner`,
    sessionId: 'pl-sessid-08',
    session_id: 'pl-sessid-09',
    log: 'set session=pl-session-16 for the user',
    raw: 'HTTP/1.1 200 OK\r\nSet-Cookie: JSESSIONID=pl-cookie-17; Path=/\r\nContent-Type: text/plain\r\n',
    access_token: 'pl-token-19',
    list: [{ id_token: jwt(23) }],
    device: 'router-1',
  },
};
const SECRETS = ['pl-pass-01', 'pl-cookie-02', 'pl-cookie-03', 'pl-cookie-04', 'pl-xsess-05', 'planted-6', 'planted-7', 'pl-sessid-08', 'pl-sessid-09', 'pl-community-10', 'pl-community-11', 'pl-otp-12', '482913', 'pl-assertion-14', 'pl-form-15', 'pl-session-16', 'pl-cookie-17', 'pl-apikey-18', 'pl-token-19', 'pl-urlpw-20', 'pl-sess-21', 'pl-bearer-22xyz', 'planted-23'];
/** What is not a secret stays readable. */
const KEPT = ['router-1', 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', 'user=op', 'h.example', 'Content-Type: text/plain', '2c'];

const leaked = (text: string) => SECRETS.filter((secret) => text.includes(secret));

describe('the planted secrets, through each way the console masks', () => {
  it('a recording entry or a log entry (redactSecrets): every one masked, the rest kept', () => {
    const text = JSON.stringify(redactSecrets(PLANTED));
    expect(leaked(text)).toEqual([]);
    for (const kept of KEPT) expect(text).toContain(kept);
  });

  it('a config export (maskSecrets): every string secret masked', () => {
    // A number under `totp` is a secret only where numbers are masked (logs, recordings); a config's are strings.
    const text = JSON.stringify(maskSecrets(PLANTED).masked);
    expect(leaked(text).filter((s) => s !== '482913')).toEqual([]);
    expect(text).toContain('router-1');
  });

  it('text: an upgrade finding and an error message', () => {
    const raw = `${PLANTED.answer.raw} ${PLANTED.answer.log} ${PLANTED.args.body} ${PLANTED.answer.note} Cookie: ${PLANTED.args.headers.Cookie} X-Session-Id: pl-xsess-05`;
    const found = finding({ rule: 'api-call', file: 'a.js', line: 1, message: raw, fix: 'Call GET /y?session=pl-session-16 instead', blocking: false });
    expect(leaked(found.message + found.fix)).toEqual([]);
    expect(leaked(redactText(raw))).toEqual([]);
    expect(maskInText('user=op&password2=pl-form-15')).toBe('user=op&password2=********');
    expect(maskInText('set session=pl-session-16 now')).toBe('set session=******** now');
  });
});

describe('a recording carrying them, imported, exported and made into a simulated instance', () => {
  let dataDir: string;
  let host: TestHost;
  beforeAll(async () => {
    // Not "planted": the folder's random suffix (logged with its path) could spell a planted value's tail (planted-6).
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-secrets-probe-'));
    host = await startTestHost({ dataDir });
  }, 60_000);
  afterAll(async () => {
    await host?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('never answers one of them in clear', async () => {
    const call = { at: 1, method: 'getDevice', args: PLANTED.args, ok: true, answer: PLANTED.answer, durationMs: 3 };
    const imported = await host.api('/adapter-recordings/import', { method: 'POST', json: { recording: { adapter: 'inv', type: 'Inventory', calls: [call] } } });
    expect(imported.status).toBe(200);
    const { _id } = await imported.json();
    const exported = await (await host.api(`/adapter-recordings/${_id}`)).text();
    expect(leaked(exported)).toEqual([]);
    expect(exported).toContain('router-1');

    const made = await host.api(`/adapter-recordings/${_id}/simulate`, { method: 'POST', json: { name: 'inv-planted' } });
    expect(made.status).toBe(200);
    expect(leaked(await made.text())).toEqual([]);
    const config = await (await host.api('/adapters/inv-planted/export')).text();
    expect(leaked(config)).toEqual([]);
    expect(config).toContain('router-1');
    const logs = await (await host.api('/logs?limit=500')).text();
    expect(leaked(logs)).toEqual([]);
  });
});
