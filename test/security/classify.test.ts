// The classifier over names it has never seen: any name whose last word (or last two joined)
// is a password, passphrase, secret, token, key, auth or credential word, in any case and with
// any separator, holds a secret; so does a credential given with its scheme and a URL password.
import fc from 'fast-check';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyField, isSecretKey, maskInText, MASK, redactSecrets } from '../../core/secrets/classify';
import { finding } from '../../core/upgrade/types';
import { startTestHost } from '../support/host';

const SECRET_WORDS = ['pass', 'passwd', 'password', 'pwd', 'passphrase', 'secret', 'token', 'key', 'apikey', 'auth', 'authorization', 'credential', 'credentials', 'cookie', 'session', 'sessionid', 'jsessionid', 'jwt', 'otp', 'totp', 'community', 'assertion'];
const SPLIT_SECRETS = [['pass', 'phrase'], ['api', 'key'], ['private', 'key'], ['session', 'id'], ['set', 'cookie'], ['community', 'string'], ['client', 'assertion']];
const PLAIN_WORDS = ['db', 'admin', 'service', 'x', 'client', 'mongo', 'redis', 'vault', 'app', 'user', 'primary', 'backup', 'v2'];
const NOT_SECRET = ['name', 'host', 'port', 'url', 'file', 'path', 'mode', 'level', 'timeout', 'id', 'type', 'description', 'enabled', 'count'];

const casing = fc.constantFrom<'lower' | 'upper' | 'title'>('lower', 'upper', 'title');
const cased = (word: string, how: 'lower' | 'upper' | 'title') => (how === 'upper' ? word.toUpperCase() : how === 'title' ? word[0]?.toUpperCase() + word.slice(1) : word);
/** A name of words joined with one separator (or camelCase), each word cased its own way. */
const nameOf = (words: fc.Arbitrary<string[]>) =>
  fc.tuple(words, fc.constantFrom('_', '-', '.', ' ', 'camel'), fc.array(casing, { minLength: 6, maxLength: 6 })).map(([ws, sep, cases]) =>
    sep === 'camel' ? ws.map((w, i) => (i === 0 ? w : cased(w, 'title'))).join('') : ws.map((w, i) => cased(w, cases[i % cases.length] ?? 'lower')).join(sep),
  );

/** A value that is not blank and does not read as a file path once trimmed (a secret-named key holding a path names a key file). */
const notPathLike = (v: string) => {
  const t = v.trim();
  return t !== '' && !/^[/.~]/.test(t) && !/^[A-Za-z]:\\/.test(t) && !t.startsWith('file:') && v !== MASK;
};

describe('the classifier over generated names', () => {
  it('finds a secret under any name ending in a secret word, in any case and with any separator', () => {
    const last = fc.oneof(fc.constantFrom(...SECRET_WORDS).map((w) => [w]), fc.constantFrom(...SPLIT_SECRETS));
    const words = fc.tuple(fc.array(fc.constantFrom(...PLAIN_WORDS), { maxLength: 3 }), last).map(([head, tail]) => [...head, ...tail]);
    fc.assert(
      fc.property(nameOf(words), fc.string({ minLength: 1, maxLength: 20 }).filter(notPathLike), (name, value) => {
        expect(isSecretKey(name), name).toBe(true);
        expect(classifyField(name, value)).toBe('secret');
        expect(JSON.stringify(redactSecrets({ [name]: value }))).toBe(JSON.stringify({ [name]: MASK }));
      }),
      { numRuns: 500 },
    );
  });

  it('leaves names that end in a plain word', () => {
    const words = fc.tuple(fc.array(fc.constantFrom(...PLAIN_WORDS), { maxLength: 3 }), fc.constantFrom(...NOT_SECRET)).map(([head, tail]) => [...head, tail]);
    fc.assert(
      fc.property(nameOf(words), (name) => {
        expect(isSecretKey(name), name).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('finds the names the attack found in clear: DB_PASSWORD, X-API-KEY, pass_phrase, authorization', () => {
    for (const name of ['DB_PASSWORD', 'X-API-KEY', 'pass_phrase', 'authorization', 'Authorization', 'client.credentials', 'basic-auth']) {
      expect(classifyField(name, 'value-1'), name).toBe('secret');
    }
  });

  it('masks a credential given with its scheme and a URL with a password, wherever they are written', () => {
    expect(maskInText('authorization: Bearer eyJhbGciOiJIUzI1NiJ9.abc.def')).toBe(`authorization: Bearer ${MASK}`);
    expect(maskInText('Authorization: Basic dXNlcjpwYXNzd29yZA==')).toBe(`Authorization: Basic ${MASK}`);
    expect(maskInText('a Bearer token is sent')).toBe('a Bearer token is sent');
    expect(maskInText('https://ops:hunter2@example.com/x')).toBe(`https://ops:${MASK}@example.com/x`);
    expect(classifyField('header', 'Bearer abcdefgh12345')).toBe('contains-secret');
  });

  it('masks token-like query values in an upgrade finding', () => {
    const f = finding({
      rule: 'api-call',
      file: 'a.js',
      line: 1,
      message: 'Calls GET /x ("http://h/x?token=abc123secret&access_token=zz9&api-key=k3y")',
      fix: 'Call GET /y?sig=s1gnature instead',
      blocking: false,
    });
    expect(f.message).toBe(`Calls GET /x ("http://h/x?token=${MASK}&access_token=${MASK}&api-key=${MASK}")`);
    expect(f.fix).toBe(`Call GET /y?sig=${MASK} instead`);
  });
});

/** base64url text, as a JWT's parts are written. */
const b64url = (min: number) => fc.stringMatching(new RegExp(`^[A-Za-z0-9_-]{${min},40}$`));
/** Prose around a secret: words and punctuation that are not themselves a secret's shape. */
const prose = fc.array(fc.constantFrom('the', 'device', 'answered', 'with', 'in', 'its', 'banner', '(', ')', ':', 'ok'), { maxLength: 6 }).map((ws) => ws.join(' '));
const SHAPED_NAMES = ['password', 'password2', 'passwd', 'session', 'sessionid', 'JSESSIONID', 'sid', 'jwt', 'otp', 'community', 'client_assertion', 'access_token', 'api_key'];

describe('secrets by their shape, wherever they are written (issue 40)', () => {
  it('masks a JWT-shaped value anywhere in a text, keeping the text around it', () => {
    fc.assert(
      fc.property(prose, b64url(4), b64url(4), b64url(0), prose, (before, header, payload, signature, after) => {
        const token = `eyJ${header}.eyJ${payload}.${signature}`;
        const masked = maskInText(`${before} ${token} ${after}`);
        expect(masked).not.toContain(token);
        expect(masked).toBe(`${before} ${MASK} ${after}`);
        expect(redactSecrets({ jwt: token, note: `got ${token}` })).toEqual({ jwt: MASK, note: `got ${MASK}` });
      }),
      { numRuns: 300 },
    );
  });

  it('masks the value of a secret name in a form body or a query, at any place, the other fields kept', () => {
    const field = fc.tuple(fc.stringMatching(/^[a-z]{1,8}$/).filter((n) => !/pass|pwd|secret|token|key|auth|cred|sess|sid|jwt|otp|community|assertion|cookie|sig/.test(n)), fc.stringMatching(/^[a-z0-9]{1,8}$/));
    fc.assert(
      fc.property(fc.array(field, { maxLength: 3 }), fc.constantFrom(...SHAPED_NAMES), fc.stringMatching(/^[A-Za-z0-9._~-]{1,24}$/), fc.array(field, { maxLength: 3 }), fc.constantFrom('', '?', 'POST /login '), (head, name, secret, tail, lead) => {
        const pairs = (list: [string, string][]) => list.map(([k, v]) => `${k}=${v}`);
        const body = `${lead}${[...pairs(head), `${name}=${secret}`, ...pairs(tail)].join('&')}`;
        expect(maskInText(body)).toBe(`${lead}${[...pairs(head), `${name}=${MASK}`, ...pairs(tail)].join('&')}`);
      }),
      { numRuns: 300 },
    );
  });

  it('masks a session header written out whole: Cookie, Set-Cookie, X-Session-Id', () => {
    const cookie = fc.array(fc.tuple(fc.stringMatching(/^[A-Za-z]{1,8}$/), fc.stringMatching(/^[A-Za-z0-9]{1,12}$/)), { minLength: 1, maxLength: 3 }).map((cs) => cs.map(([k, v]) => `${k}=${v}`).join('; '));
    fc.assert(
      fc.property(fc.constantFrom('Cookie', 'Set-Cookie', 'set-cookie', 'X-Session-Id'), cookie, (header, value) => {
        expect(maskInText(`GET /x\r\n${header}: ${value}\r\nAccept: */*`)).toBe(`GET /x\r\n${header}: ${MASK}\r\nAccept: */*`);
        expect(redactSecrets({ headers: { [header]: value } })).toEqual({ headers: { [header]: MASK } });
        expect(redactSecrets({ headers: { [header]: [value, value] } })).toEqual({ headers: { [header]: [MASK, MASK] } });
      }),
      { numRuns: 200 },
    );
  });

  it('masks a one-time code even given as a number, and leaves other numbers', () => {
    expect(redactSecrets({ otp: 482913, totp: 123456, pin: 1234, port: 8080, retries: 3 })).toEqual({ otp: MASK, totp: MASK, pin: MASK, port: 8080, retries: 3 });
  });
});

describe('a profile with encrypted: true and secrets under names the old classifier missed', () => {
  it('seals them on disk and never answers them in clear', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-classify-'));
    const host = await startTestHost({ dataDir });
    try {
      const clear = { DB_PASSWORD: 'db-pw-Zz91', 'X-API-KEY': 'api-key-Yy82', pass_phrase: 'phrase-Xx73', authorization: 'Bearer tok3n-Ww64-abcdefgh' };
      const saved = await host.api('/profiles', {
        method: 'POST',
        json: { id: 'sealed', pathProps: { encrypted: true }, extraProps: { ...clear } },
      });
      expect(saved.status).toBeLessThan(300);
      const answered = await (await host.api('/profiles/sealed')).text();
      const onDisk = await readFile(path.join(dataDir, 'profiles', 'sealed', 'properties.json'), 'utf8');
      for (const value of Object.values(clear)) {
        expect(answered).not.toContain(value);
        expect(onDisk).not.toContain(value);
      }
    } finally {
      await host.dispose();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
