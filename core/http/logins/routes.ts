// The service's logins as routes of the HTTP transport: `POST /login` (a session, its token in the
// answer and in a cookie), `GET /logout`, `POST /oauth/token` (client credentials, form-encoded).
// They are not operations of the contract: the desktop window reaches the core over IPC, which the
// token's holder opened, and has nothing to log in to; these exist for the service's HTTP clients.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ConsoleError } from '../../errors';
import { SESSION_COOKIE, SESSION_IDLE_MS, type Logins, type Proof } from './credentials';

/** The routes any caller may reach without a credential (`METHOD path`): the logins check their own, a logout ends only the session it names. */
export const LOGIN_ROUTES: ReadonlySet<string> = new Set(['POST /login', 'POST /oauth/token', 'GET /logout']);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const badField = (path: string, message: string) => new ConsoleError('bad_input', `${path}: ${message}`, { issues: [{ path, message }] });

function stringField(parent: Record<string, unknown>, key: string, path: string): string {
  const value = parent[key];
  if (value === undefined || value === null || value === '') throw badField(path, 'required');
  if (typeof value !== 'string') throw badField(path, `expected a string, got ${Array.isArray(value) ? 'an array' : typeof value}`);
  return value;
}

/** The value of one cookie of the request, or undefined. */
export function cookieOf(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    if (part.slice(0, at).trim() !== name) continue;
    const value = part.slice(at + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      // A value that is not valid percent-encoding is compared as it was sent.
      return value;
    }
  }
  return undefined;
}

/** `?token=` of a request (the first, when it is given twice), or undefined. */
export function queryTokenOf(request: FastifyRequest): string | undefined {
  const query = request.query;
  if (!isRecord(query)) return undefined;
  const value = query.token;
  if (typeof value === 'string') return value;
  return Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined;
}

/**
 * What a request proves, or undefined: `Authorization: Bearer` (the token or an access token),
 * `?token=` (the token, a session, an access token), the session cookie. A cookie sent by a page
 * of another origin proves nothing (`Origin` is checked): a cookie rides along with any request
 * the browser makes, the header and the parameter only with those the caller wrote.
 */
export function proofOf(request: FastifyRequest, logins: Logins): Proof | undefined {
  const auth = request.headers.authorization ?? '';
  if (auth.startsWith('Bearer ')) {
    const proof = logins.bearer(auth.slice('Bearer '.length));
    if (proof) return proof;
  }
  const query = queryTokenOf(request);
  if (query !== undefined) {
    const proof = logins.queryToken(query);
    if (proof) return proof;
  }
  const cookie = cookieOf(request, SESSION_COOKIE);
  if (cookie !== undefined && sameOrigin(request) && logins.isSession(cookie)) return 'session';
  return undefined;
}

/** True unless the request carries an `Origin` other than the console's own (the Host it was sent to). */
function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  const host = request.headers.host ?? '';
  return origin === `http://${host}` || origin === `https://${host}`;
}

function sessionCookie(value: string, maxAgeSeconds: number): string {
  return `${SESSION_COOKIE}=${encodeURIComponent(value)}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict`;
}

const noStore = (reply: FastifyReply) => reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');

const wrongLogin = () => new ConsoleError('unauthorized', 'login failed: wrong username or password');
const wrongClient = () => new ConsoleError('unauthorized', 'invalid_client: wrong client credentials');

/** A login's body is a few fields: read before any credential is shown, it is kept small (64 KB, not the API's 10 MB). */
export const LOGIN_BODY_LIMIT = 64 * 1024;

/** What a body that could not be read turned into (the server's lenient parsers), re-thrown as its error. */
export type BodyCheck = (body: unknown) => unknown;

export function registerLoginRoutes(app: FastifyInstance, logins: Logins, readBody: BodyCheck) {
  app.post('/login', { bodyLimit: LOGIN_BODY_LIMIT }, async (request, reply) => {
    const body = readBody(request.body);
    if (!isRecord(body)) throw badField('body', 'send { "user": { "username", "password" } } as JSON');
    // The 2022.1 body is { user: { username, password } }; the vendor's newer guides send { username, password }.
    const flat = body.user === undefined && (body.username !== undefined || body.password !== undefined);
    const user = flat ? body : body.user;
    if (!isRecord(user)) throw badField('body.user', user === undefined ? 'required: { "username", "password" }' : 'expected an object { "username", "password" }');
    const at = flat ? 'body' : 'body.user';
    const username = stringField(user, 'username', `${at}.username`);
    const password = stringField(user, 'password', `${at}.password`);
    const session = logins.login(username, password);
    if (!session) throw wrongLogin();
    noStore(reply).header('Set-Cookie', sessionCookie(session, SESSION_IDLE_MS / 1000));
    // The service answers the session's token as text, which its clients pass as `?token=`.
    return reply.type('text/plain; charset=utf-8').send(session);
  });

  app.get('/logout', async (request, reply) => {
    const given = queryTokenOf(request) ?? cookieOf(request, SESSION_COOKIE) ?? '';
    logins.logout(given);
    noStore(reply).header('Set-Cookie', sessionCookie('', 0));
    return reply.type('text/plain; charset=utf-8').send('logged out');
  });

  // Form-encoded bodies (RFC 6749 §4.4) are read here only: every other route takes JSON.
  app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, text, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(text))));
    });
    scope.post('/oauth/token', { bodyLimit: LOGIN_BODY_LIMIT }, async (request, reply) => {
      const body = readBody(request.body);
      if (!isRecord(body)) throw badField('body', 'send grant_type=client_credentials, client_id and client_secret, form-encoded');
      const grant = stringField(body, 'grant_type', 'body.grant_type');
      if (grant !== 'client_credentials') throw badField('body.grant_type', `unsupported_grant_type "${grant.slice(0, 40)}": only client_credentials`);
      stringField(body, 'client_id', 'body.client_id');
      const secret = stringField(body, 'client_secret', 'body.client_secret');
      const issued = logins.issueAccessToken(secret);
      if (!issued) throw wrongClient();
      return noStore(reply).send(issued);
    });
  });
}
