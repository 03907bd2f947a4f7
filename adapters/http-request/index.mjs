// HTTP requests from workflows, restricted to the base URLs the configuration allows.
let settings = { allowedBaseUrls: [], timeoutMs: 10000, maxRedirects: 5, headers: {} };
let bases = [];

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

export async function start(config) {
  settings = { ...settings, ...config };
  if (!Array.isArray(settings.allowedBaseUrls)) throw new Error('allowedBaseUrls must be an array of URLs');
  bases = settings.allowedBaseUrls.map(parseBase);
}

export function connectionState(context) {
  if (bases.length === 0) {
    return { state: 'OFFLINE', detail: `no allowed base URLs: set allowedBaseUrls in ${context.id}.config.json of the profile's adapters directory` };
  }
  return { state: 'ONLINE', detail: `${bases.length} allowed base URL${bases.length === 1 ? '' : 's'}` };
}

/** The URL if a configured base allows it; otherwise an error naming the URL and the bases. */
function allowedUrl(text, query) {
  let url;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`"${text}" is not an absolute URL`);
  }
  if (query && typeof query === 'object') for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
  const path = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
  const ok = !url.username && !url.password && bases.some((base) => base.origin === url.origin && path.startsWith(base.path));
  if (!ok) {
    const allowed = bases.length ? bases.map((b) => b.text).join(', ') : 'none configured';
    throw new Error(`refused: ${url.origin}${url.pathname} is not under an allowed base URL (allowed: ${allowed})`);
  }
  return url;
}

async function request(method, args) {
  if (typeof args.url !== 'string') throw new Error(`${method.toLowerCase()}: "url" must be a string`);
  let url = allowedUrl(args.url, args.query);
  const headers = { ...settings.headers, ...(args.headers ?? {}) };
  let body;
  if (method === 'POST' && args.body !== undefined) {
    if (typeof args.body === 'string') body = args.body;
    else {
      body = JSON.stringify(args.body);
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    }
  }
  for (let hop = 0; ; hop++) {
    const response = await fetch(url, { method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(settings.timeoutMs) }).catch((error) => {
      const cause = error.name === 'TimeoutError' ? `no answer within ${settings.timeoutMs} ms` : (error.cause?.message ?? error.message);
      throw new Error(`${method} ${url.href} failed: ${cause}`);
    });
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      if (hop >= settings.maxRedirects) throw new Error(`${method} ${url.href}: more than ${settings.maxRedirects} redirects`);
      url = allowedUrl(new URL(location, url).href);
      continue;
    }
    const text = await response.text();
    const isJson = (response.headers.get('content-type') ?? '').includes('json');
    let parsed = text;
    if (isJson && text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    if (response.status >= 400 && !args.allowErrorStatus) {
      throw new Error(`${method} ${url.href} answered ${response.status} ${response.statusText}${text ? `: ${text.slice(0, 200)}` : ''}`);
    }
    return { status: response.status, statusText: response.statusText, headers: Object.fromEntries(response.headers), body: parsed };
  }
}

export const methods = {
  get: (args) => request('GET', args),
  post: (args) => request('POST', args),
};
