// Field names MongoDB cannot take in every version and operation (a leading `$`,
// a `.`) are encoded inside documents on the way in and decoded on the way out, so
// job variables from operators come back exactly. An encoded key is the marker
// "\uFF04\uFF04" and the key with `%`, `.` and a leading `$` percent-encoded; a key
// that itself starts with the marker is encoded too, so decoding is never ambiguous.
// Query and update paths are not touched (they name the engine's own fields).

const MARK = '\uFF04\uFF04';

const needsEncoding = (key: string) => key.startsWith('$') || key.includes('.') || key.startsWith(MARK);

export function encodeKey(key: string): string {
  if (!needsEncoding(key)) return key;
  return MARK + key.replaceAll('%', '%25').replaceAll('.', '%2E').replace(/^\$/, '%24');
}

export function decodeKey(key: string): string {
  if (!key.startsWith(MARK)) return key;
  return key.slice(MARK.length).replace(/%(2E|24|25)/g, (_m, code: string) => (code === '2E' ? '.' : code === '24' ? '$' : '%'));
}

function isPlain(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function mapKeys(value: unknown, rename: (key: string) => string, test: (key: string) => boolean): unknown {
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    value.forEach((item, i) => {
      const mapped = mapKeys(item, rename, test);
      if (mapped !== item) (out ??= [...value])[i] = mapped;
    });
    return out ?? value;
  }
  if (!isPlain(value)) return value;
  let out: Record<string, unknown> | undefined;
  const keys = Object.keys(value);
  for (const key of keys) {
    const item = value[key];
    const mapped = mapKeys(item, rename, test);
    if (mapped !== item || test(key)) {
      out ??= {};
      break;
    }
  }
  if (!out) return value; // nothing to change: the same object, no copy
  for (const key of keys) out[rename(key)] = mapKeys(value[key], rename, test);
  return out;
}

/** A document's keys mapped: a plain document gives a plain document (itself when nothing changes). */
function mapDocKeys(doc: Record<string, unknown>, rename: (key: string) => string, test: (key: string) => boolean): Record<string, unknown> {
  const mapped = mapKeys(doc, rename, test);
  return isPlain(mapped) ? mapped : doc;
}

/** A document's values as stored: every nested key that needs it encoded (top-level `_id` and fields too). */
export const encodeDocKeys = (doc: Record<string, unknown>) => mapDocKeys(doc, encodeKey, needsEncoding);
export const decodeDocKeys = (doc: Record<string, unknown>) => mapDocKeys(doc, decodeKey, (k) => k.startsWith(MARK));

/** An update's values encoded; its paths (`$set: { 'metrics.end_time': … }`) kept. */
export function encodeUpdateValues(update: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [op, fields] of Object.entries(update)) {
    if (op !== '$set' || !isPlain(fields)) {
      out[op] = fields;
      continue;
    }
    out[op] = Object.fromEntries(Object.entries(fields).map(([path, value]) => [path, mapKeys(value, encodeKey, needsEncoding)]));
  }
  return out;
}
