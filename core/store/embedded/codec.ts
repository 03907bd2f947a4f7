// Documents as JSON text. JSON has no dates, so a Date is stored as a string
// that starts with U+FDD0 (a Unicode noncharacter, reserved for internal use):
// "\uFDD0D" and the ISO time; binary data (a Buffer or Uint8Array, MongoDB's BinData: GridFS
// chunks) likewise as "\uFDD0B" and its base64, read back as a Buffer. ISO times of one era sort as the dates do, so range
// queries, indexes and sorts on dates work in SQL; they also sort after every
// ordinary string, as MongoDB orders dates after strings. A user string that
// itself starts with U+FDD0 is kept apart as "\uFDD0S" + the string.
// Keys are kept as they are: `.` and a leading `$` are ordinary in JSON.
// A lone surrogate (legal in a JavaScript string, not in UTF-8) is written as U+FFFD, as MongoDB's
// driver writes it (js-bson encodes strings to UTF-8 as Buffer does): in the text (`wellFormed`), and
// in a value bound to SQL (encodeScalar; node:sqlite binds a plain string so by itself). Else
// json_extract reads the text's "\ud800" as other bytes than a bound string's, and a column, the
// generated _id or a query would disagree with the document.

const MARK = '\uFDD0';
const DATE = `${MARK}D`;
const BINARY = `${MARK}B`;
const ESCAPED = `${MARK}S`;
/** A reference to a value kept once (shared-values.ts): never a user's string, which is stored escaped. */
export const REF = `${MARK}R`;
/** The references in a document's text: a value (after `:"`; inside a string a quote is escaped) that starts with REF. */
export const REFERENCES = /:"\uFDD0R([0-9a-f.]+)"/g;

/** A shared value's reference in a document being written or updated: written as the string REF + key. */
export class SharedRef {
  constructor(readonly key: string) {}
  toJSON(): string {
    return REF + this.key;
  }
}

/** A value as it is stored and compared in SQL. */
export function encodeScalar(value: unknown): unknown {
  if (value instanceof Date) return DATE + (Number.isNaN(value.getTime()) ? 'Invalid' : value.toISOString());
  if (value instanceof Uint8Array) return BINARY + Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
  if (typeof value !== 'string') return value;
  const text = toWellFormed(value);
  return text.startsWith(MARK) ? ESCAPED + text : text;
}

const SURROGATE = /[\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/** Whether a string holds no lone surrogate (String#isWellFormed, ES2024; this project's lib is older). */
export const isWellFormed = (value: string) => !SURROGATE.test(value) || !LONE_SURROGATE.test(value);

/** The string with each lone surrogate as U+FFFD (String#toWellFormed); the string itself when it holds no surrogate. */
export const toWellFormed = (value: string) => (SURROGATE.test(value) ? value.replace(LONE_SURROGATES, '\uFFFD') : value);

/** A lone surrogate's escape: after an even run of backslashes (else it is an escaped backslash and the letter u). */
const LONE = /(?<!\\)((?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/g;

/**
 * JSON text with each lone surrogate written as U+FFFD (codec's opening comment): one search of the
 * text for the escape JSON.stringify writes a lone surrogate as (lowercase; a pair it writes as it
 * is), 50 ns on a 3 KB document; no walk.
 */
export function wellFormed(text: string): string {
  return text.includes('\\ud') ? text.replace(LONE, '$1\\ufffd') : text;
}

/** JSON.stringify, each lone surrogate written as U+FFFD. */
export function stringify(value: unknown): string {
  return wellFormed(JSON.stringify(value));
}

function replacer(this: Record<string, unknown>, key: string, value: unknown) {
  // JSON.stringify has already turned a Date into its ISO string: look at the holder.
  const original = this[key];
  if (original instanceof Date || original instanceof Uint8Array) return encodeScalar(original);
  if (original instanceof SharedRef) return value;
  if (typeof value === 'string' && value.startsWith(MARK)) return ESCAPED + value;
  return value;
}

/** Whether a value holds a Date or binary data anywhere (what JSON.stringify alone would not write as stored). */
function holdsDate(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (value instanceof Date || value instanceof Uint8Array) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (holdsDate(item)) return true;
    return false;
  }
  for (const key in value) if (holdsDate(Reflect.get(value, key))) return true;
  return false;
}

/** Whether a document's text holds a date or a marked string: a document decoded from text that does not holds neither. */
export const holdsMark = (text: string) => text.includes(MARK);

/** How many times the mark occurs in a text. */
function marks(text: string): number {
  let n = 0;
  for (let at = text.indexOf(MARK); at >= 0; at = text.indexOf(MARK, at + 1)) n++;
  return n;
}

/**
 * The text of a document as JSON.stringify alone writes it, when that is its stored text: it holds
 * no Date, and no mark but the `refs` of its references (a SharedRef, or its text REF + key in its
 * place); undefined otherwise (encodeDoc's replacer is needed).
 */
export function plainText(doc: unknown, refs = 0): string | undefined {
  if (holdsDate(doc)) return undefined;
  const text = JSON.stringify(doc);
  if (text === undefined) return text;
  return (refs === 0 ? !text.includes(MARK) : marks(text) === refs) ? wellFormed(text) : undefined;
}

/** The text of a document; `refs`: how many SharedRef it holds (each writes one mark of its own). */
export function encodeDoc(doc: unknown, refs = 0): string {
  // A replacer makes JSON.stringify call back for every value (several times slower): it is
  // needed only for a Date, or a string starting with the mark (seen in the plain text).
  return plainText(doc, refs) ?? wellFormed(JSON.stringify(doc, replacer));
}

function reviver(_key: string, value: unknown) {
  if (typeof value !== 'string' || !value.startsWith(MARK)) return value;
  if (value.startsWith(DATE)) {
    const iso = value.slice(DATE.length);
    return new Date(iso === 'Invalid' ? Number.NaN : iso);
  }
  if (value.startsWith(BINARY)) return Buffer.from(value.slice(BINARY.length), 'base64');
  return value.startsWith(ESCAPED) ? value.slice(ESCAPED.length) : value;
}

export function decodeDoc<T = Record<string, unknown>>(text: string): T {
  // Most documents hold no date: skip the reviver's per-value call for them.
  return (text.includes(MARK) ? JSON.parse(text, reviver) : JSON.parse(text)) as T;
}

function refReviver(key: string, value: unknown) {
  return typeof value === 'string' && value.startsWith(REF) ? new SharedRef(value.slice(REF.length)) : reviver(key, value);
}

/**
 * A stored document with its references (top-level fields only) as SharedRef: what an update that
 * touches no shared field changes and writes back (encodeDoc with `refs`) without the shared values.
 * `plain`: its only marks are its references' (no date, no escaped string).
 */
export function decodeWithRefs(text: string): { doc: Record<string, unknown>; refs: number; plain: boolean } {
  // Every mark a reference's (none of a date or an escaped string): the plain parse, then the top-level references made SharedRef.
  const plain = marks(text) === (text.match(REFERENCES)?.length ?? 0);
  const doc = (plain ? JSON.parse(text) : JSON.parse(text, refReviver)) as Record<string, unknown>;
  let refs = 0;
  for (const key in doc) {
    const value = doc[key];
    if (plain && typeof value === 'string' && value.startsWith(REF)) doc[key] = new SharedRef(value.slice(REF.length));
    if (doc[key] instanceof SharedRef) refs++;
  }
  return { doc, refs, plain };
}

/** What JSON does to a value (jsonFate); `equal` false ends the walk. */
interface Fate {
  /** encodeDoc then decodeDoc gives an equal value back. */
  equal: boolean;
  /** It holds an object, an array or a date (a value a caller may change later). */
  objects: boolean;
  /** It holds a date, or a string with the mark: encodeDoc, not JSON.stringify alone, writes it. */
  marked: boolean;
}

const MAX_DEPTH = 32;

function walk(value: unknown, fate: Fate, depth: number) {
  if (value === null || typeof value === 'boolean') return;
  if (typeof value === 'string') {
    if (value.includes(MARK)) fate.marked = true;
    // A lone surrogate comes back as U+FFFD.
    if (!isWellFormed(value)) fate.equal = false;
    return;
  }
  // JSON writes -0 as 0, and NaN and the infinities as null.
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || Object.is(value, -0)) fate.equal = false;
    return;
  }
  fate.objects = true;
  if (value instanceof Date) {
    fate.marked = true;
    return;
  }
  const proto: unknown = typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
  // A class's instance (its toJSON, or its fields only), a function, undefined, a bigint or a symbol: not what comes back.
  if (depth >= MAX_DEPTH || (proto !== Object.prototype && proto !== Array.prototype && proto !== null)) {
    fate.equal = false;
    return;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length && fate.equal; i++) {
      // A hole or undefined comes back as null.
      if (!(i in value) || value[i] === undefined) fate.equal = false;
      else walk(value[i], fate, depth + 1);
    }
    return;
  }
  for (const key in value) {
    if (!fate.equal) return;
    if (!isWellFormed(key)) fate.equal = false;
    walk(Reflect.get(value, key), fate, depth + 1);
  }
}

/**
 * Whether the values of each of `fields` (plain objects, or undefined: none) come back equal
 * through encodeDoc and decodeDoc (no undefined, function, class instance, -0, NaN or infinity
 * anywhere in them), whether they hold objects, and whether they need encodeDoc's marks. A key
 * inherited or not enumerable is left out alike by both.
 */
export function jsonFate(...fields: unknown[]): Fate {
  const fate: Fate = { equal: true, objects: false, marked: false };
  for (const holder of fields) {
    if (holder === undefined) continue;
    const proto: unknown = typeof holder === 'object' && holder !== null ? Object.getPrototypeOf(holder) : undefined;
    if (proto !== Object.prototype && proto !== null) return { ...fate, equal: false };
    for (const key in holder) {
      if (!isWellFormed(key)) return { ...fate, equal: false };
      walk(Reflect.get(holder, key), fate, 0);
      if (!fate.equal) return fate;
    }
  }
  return fate;
}
