// What the HTTP transport accepts as proof of the console's token, in the service's forms: the token
// itself (`Authorization: Bearer`, `?token=`), a session opened by `POST /login` as the local `admin`
// account whose password is the token (its token in `?token=` or the session cookie), and an access
// token issued by `POST /oauth/token` for the client secret that is the token (`Authorization: Bearer`).
// Every session and access token is derived from the token: `rotate` (a new token) ends them all,
// and they live in this object only, so a restart ends them too.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** The service's local account name; its password is the console's token. */
export const ADMIN_USER = 'admin';
/** The cookie a login sets, named as the service names its session token (`?token=`). */
export const SESSION_COOKIE = 'token';
/** A session ends after this long without a request (each request made with it extends it). */
export const SESSION_IDLE_MS = 60 * 60 * 1000;
/** An access token of `POST /oauth/token` lives this long (seconds, as `expires_in` says), whatever its use. */
export const ACCESS_TOKEN_SECONDS = 60 * 60;
/** At most this many sessions (and as many access tokens) are kept; past it, the one that ends first goes. */
export const MAX_LIVE = 1000;

/** How a request proved it holds the token. */
export type Proof = 'console-token' | 'session' | 'access-token';

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

/** Compares in constant time for strings of the same length (the length itself is no secret: it is fixed). */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Ids that expire: kept by their digest only, so a map lookup compares no secret and a memory dump shows none. */
class Expiring {
  private readonly until = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  add(id: string, expiresAt: number) {
    this.prune();
    if (this.until.size >= MAX_LIVE) {
      // The one that ends first makes room: a flood of logins cannot grow the map without bound.
      let first: [string, number] | undefined;
      for (const entry of this.until) if (!first || entry[1] < first[1]) first = entry;
      if (first) this.until.delete(first[0]);
    }
    this.until.set(digest(id), expiresAt);
  }

  /** Whether `id` is live; `extendTo` moves its end (a session's idle time) when it is. */
  live(id: string, extendTo?: number): boolean {
    const key = digest(id);
    const end = this.until.get(key);
    if (end === undefined) return false;
    if (end <= this.now()) {
      this.until.delete(key);
      return false;
    }
    if (extendTo !== undefined) this.until.set(key, extendTo);
    return true;
  }

  delete(id: string) {
    return this.until.delete(digest(id));
  }

  clear() {
    this.until.clear();
  }

  get size() {
    this.prune();
    return this.until.size;
  }

  private prune() {
    const now = this.now();
    for (const [key, end] of this.until) if (end <= now) this.until.delete(key);
  }
}

/**
 * A session's token as `POST /login` answers it: the base64 of a random hex id, as the service
 * answers. Clients that use the answer as it is and clients that decode it first are both served:
 * either form names the session.
 */
function sessionForms(given: string): string[] {
  const forms = [given];
  if (/^[A-Za-z0-9+/]+=*$/.test(given) && given.length % 4 === 0) {
    const decoded = Buffer.from(given, 'base64').toString('utf8');
    if (/^[0-9a-f]{64}$/.test(decoded)) forms.push(decoded);
  }
  return forms;
}

export class Logins {
  private token: string;
  private readonly sessions: Expiring;
  private readonly accessTokens: Expiring;

  constructor(
    token: string,
    private readonly now: () => number = Date.now,
  ) {
    this.token = token;
    this.sessions = new Expiring(now);
    this.accessTokens = new Expiring(now);
  }

  /** A new token: every session and access token made under the old one ends now. */
  rotate(next: string) {
    this.token = next;
    this.sessions.clear();
    this.accessTokens.clear();
  }

  isToken(given: string): boolean {
    return given !== '' && sameSecret(given, this.token);
  }

  /** `POST /login`: a new session's token when `username` is `admin` and `password` the token, else undefined. */
  login(username: string, password: string): string | undefined {
    // Both are compared whatever the first gives, so the time taken does not tell which was wrong.
    const userOk = sameSecret(digest(username), digest(ADMIN_USER));
    const passwordOk = this.isToken(password);
    if (!userOk || !passwordOk) return undefined;
    const id = randomBytes(32).toString('hex');
    this.sessions.add(id, this.now() + SESSION_IDLE_MS);
    return Buffer.from(id).toString('base64');
  }

  /** `POST /oauth/token`: a short-lived access token when `secret` is the token, else undefined. */
  issueAccessToken(secret: string): { access_token: string; token_type: 'Bearer'; expires_in: number } | undefined {
    if (!this.isToken(secret)) return undefined;
    const token = randomBytes(32).toString('base64url');
    this.accessTokens.add(token, this.now() + ACCESS_TOKEN_SECONDS * 1000);
    return { access_token: token, token_type: 'Bearer', expires_in: ACCESS_TOKEN_SECONDS };
  }

  /** Whether `given` is a live session (either form of its token); a use extends it. */
  isSession(given: string): boolean {
    if (given === '') return false;
    return sessionForms(given).some((form) => this.sessions.live(form, this.now() + SESSION_IDLE_MS));
  }

  isAccessToken(given: string): boolean {
    return given !== '' && this.accessTokens.live(given);
  }

  /** Ends the session `given` names (`GET /logout`); false when there was none. */
  logout(given: string): boolean {
    return sessionForms(given).some((form) => this.sessions.delete(form));
  }

  /** What a bearer credential proves: the token or an access token. */
  bearer(given: string): Proof | undefined {
    if (this.isToken(given)) return 'console-token';
    return this.isAccessToken(given) ? 'access-token' : undefined;
  }

  /** What `?token=` proves: the token, a session, or an access token. */
  queryToken(given: string): Proof | undefined {
    if (this.isToken(given)) return 'console-token';
    if (this.isSession(given)) return 'session';
    return this.isAccessToken(given) ? 'access-token' : undefined;
  }

  /** Live sessions and access tokens, for tests and the docs' figures. */
  counts() {
    return { sessions: this.sessions.size, accessTokens: this.accessTokens.size };
  }
}
