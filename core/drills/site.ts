// A site of a drill: a console reachable over its API (URL + token). Every call names the site
// and the route in its error, so a failed step says which site answered what.
import { codeOfStatus, errorMessage, systemErrorCode, type ErrorCode } from '../errors';
export interface SiteRef {
  name: string;
  url: string;
  token: string;
}

export class SiteError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }

  /** What the other console's answer means (its code in core/errors' table); undefined when it did not answer. */
  get code(): ErrorCode | undefined {
    return this.status === undefined ? undefined : codeOfStatus(this.status);
  }
}

export class Site {
  constructor(readonly ref: SiteRef) {}

  get name() {
    return this.ref.name;
  }

  async call<T = unknown>(method: string, pathname: string, body?: unknown, timeoutMs = 15_000): Promise<T> {
    let response: Response;
    try {
      response = await fetch(this.ref.url + pathname, {
        method,
        headers: { authorization: `Bearer ${this.ref.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      // fetch's own error says little; its cause names the system error (ECONNREFUSED...).
      const cause: unknown = error instanceof Error ? error.cause : undefined;
      const why = cause instanceof Error ? (systemErrorCode(cause) ?? cause.message) : undefined;
      throw new SiteError(`site "${this.name}" (${this.ref.url}) does not answer ${method} ${pathname}: ${errorMessage(error)}${why ? ` (${why})` : ''}`);
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON (an HTML error page): the text itself is the answer shown in the error below.
    }
    if (!response.ok) {
      const given: unknown = typeof parsed === 'object' && parsed !== null ? Reflect.get(parsed, 'message') : undefined;
      const message = typeof given === 'string' ? given : text.slice(0, 200);
      throw new SiteError(`site "${this.name}" answered ${response.status} to ${method} ${pathname}: ${message}`, response.status);
    }
    return parsed as T;
  }
}
