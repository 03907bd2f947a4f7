// HTTP requests from workflows, restricted to the base URLs its properties allow. Hosted as the
// service hosts adapters: new HttpRequest(id, properties), connect(), healthCheck(reqObj, callback)
// and methods called with their inputs in order and a last callback(result, error).
/* global log */
'use strict';
const EventEmitter = require('node:events');

function parseBase(text) {
  let url;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`allowedBaseUrls: "${text}" is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`allowedBaseUrls: "${text}" is not http or https`);
  const path = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
  return { text, origin: url.origin, path };
}

/** An error object in the shape the service's adapters answer with. */
function iapError(id, method, displayString, code, raw) {
  return { icode: 'AD.500', IAPerror: { origin: `${id}-${method}`, displayString, recommendation: 'Check the URL and allowedBaseUrls', ...(code ? { code } : {}), ...(raw ? { raw_response: raw } : {}) } };
}

class HttpRequest extends EventEmitter {
  constructor(id, properties) {
    super();
    this.id = id;
    this.settings = { allowedBaseUrls: [], timeoutMs: 10000, maxRedirects: 5, headers: {}, allowErrorStatus: false, ...(properties || {}) };
    this.problem = undefined;
    try {
      if (!Array.isArray(this.settings.allowedBaseUrls)) throw new Error('allowedBaseUrls must be an array of URLs');
      this.bases = this.settings.allowedBaseUrls.map(parseBase);
    } catch (error) {
      this.bases = [];
      this.problem = error.message;
    }
  }

  connect() {
    this.healthCheck(null, () => undefined);
  }

  /** Healthy when at least one base URL is allowed (otherwise it can do nothing). */
  healthCheck(reqObj, callback) {
    if (this.problem || this.bases.length === 0) {
      const why = this.problem || `no allowed base URLs: set properties.allowedBaseUrls of adapter ${this.id}`;
      log.warn(why);
      this.emit('OFFLINE', { id: this.id });
      return callback(null, iapError(this.id, 'healthCheck', why));
    }
    this.emit('ONLINE', { id: this.id });
    return callback({ id: this.id, status: 'success' });
  }

  allowedUrl(text, query) {
    const url = new URL(text);
    if (query && typeof query === 'object') for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
    const path = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
    const ok = !url.username && !url.password && this.bases.some((base) => base.origin === url.origin && path.startsWith(base.path));
    if (!ok) {
      const allowed = this.bases.length ? this.bases.map((b) => b.text).join(', ') : 'none configured';
      throw new Error(`refused: ${url.origin}${url.pathname} is not under an allowed base URL (allowed: ${allowed})`);
    }
    return url;
  }

  async request(method, urlText, { body, headers, query }) {
    if (typeof urlText !== 'string') throw new Error(`${method.toLowerCase()}: url is required and must be a string`);
    let url = this.allowedUrl(urlText, query);
    const sent = { ...this.settings.headers, ...(headers || {}) };
    let payload;
    if (method === 'POST' && body !== undefined && body !== null) {
      if (typeof body === 'string') payload = body;
      else {
        payload = JSON.stringify(body);
        if (!Object.keys(sent).some((h) => h.toLowerCase() === 'content-type')) sent['content-type'] = 'application/json';
      }
    }
    for (let hop = 0; ; hop++) {
      const timeoutMs = this.settings.timeoutMs;
      const response = await fetch(url, { method, headers: sent, body: payload, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) }).catch((error) => {
        const cause = error.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (error.cause && error.cause.message) || error.message;
        throw new Error(`${method} ${url.href} failed: ${cause}`);
      });
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        if (hop >= this.settings.maxRedirects) throw new Error(`${method} ${url.href}: more than ${this.settings.maxRedirects} redirects`);
        url = this.allowedUrl(new URL(location, url).href);
        continue;
      }
      const text = await response.text();
      let parsed = text;
      if ((response.headers.get('content-type') || '').includes('json') && text) {
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = text;
        }
      }
      const result = { status: response.status, statusText: response.statusText, headers: Object.fromEntries(response.headers), body: parsed };
      if (response.status >= 400 && !this.settings.allowErrorStatus) {
        const error = new Error(`${method} ${url.href} answered ${response.status} ${response.statusText}`);
        error.raw = result;
        throw error;
      }
      return result;
    }
  }

  answer(method, promise, callback) {
    promise.then(
      (result) => callback(result),
      (error) => callback(null, iapError(this.id, method, error.message, error.raw ? error.raw.status : undefined, error.raw)),
    );
  }

  get(url, headers, query, callback) {
    this.answer('get', this.request('GET', url, { headers, query }), callback);
  }

  post(url, body, headers, callback) {
    this.answer('post', this.request('POST', url, { body, headers }), callback);
  }
}

module.exports = HttpRequest;
module.exports.HttpRequest = HttpRequest;
