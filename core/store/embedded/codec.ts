// Documents as JSON text. JSON has no dates, so a Date is stored as a string
// that starts with U+FDD0 (a Unicode noncharacter, reserved for internal use):
// "\uFDD0D" and the ISO time. ISO times of one era sort as the dates do, so range
// queries, indexes and sorts on dates work in SQL; they also sort after every
// ordinary string, as MongoDB orders dates after strings. A user string that
// itself starts with U+FDD0 is kept apart as "\uFDD0S" + the string.
// Keys are kept as they are: `.` and a leading `$` are ordinary in JSON.

const MARK = '\uFDD0';
const DATE = `${MARK}D`;
const ESCAPED = `${MARK}S`;

/** A value as it is stored and compared in SQL. */
export function encodeScalar(value: unknown): unknown {
  if (value instanceof Date) return DATE + (Number.isNaN(value.getTime()) ? 'Invalid' : value.toISOString());
  if (typeof value === 'string' && value.startsWith(MARK)) return ESCAPED + value;
  return value;
}

function replacer(this: Record<string, unknown>, key: string, value: unknown) {
  // JSON.stringify has already turned a Date into its ISO string: look at the holder.
  const original = this[key];
  if (original instanceof Date) return encodeScalar(original);
  if (typeof value === 'string' && value.startsWith(MARK)) return ESCAPED + value;
  return value;
}

/** Whether a value holds a Date anywhere (what JSON.stringify alone would write as a plain string). */
function holdsDate(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (value instanceof Date) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (holdsDate(item)) return true;
    return false;
  }
  for (const key in value) if (holdsDate(Reflect.get(value, key))) return true;
  return false;
}

/** Whether a document's text holds a date or a marked string: a document decoded from text that does not holds neither. */
export const holdsMark = (text: string) => text.includes(MARK);

export function encodeDoc(doc: unknown): string {
  // A replacer makes JSON.stringify call back for every value (several times slower): it is
  // needed only for a Date, or a string starting with the mark (seen in the plain text).
  if (!holdsDate(doc)) {
    const text = JSON.stringify(doc);
    if (text === undefined || !text.includes(MARK)) return text;
  }
  return JSON.stringify(doc, replacer);
}

function reviver(_key: string, value: unknown) {
  if (typeof value !== 'string' || !value.startsWith(MARK)) return value;
  if (value.startsWith(DATE)) {
    const iso = value.slice(DATE.length);
    return new Date(iso === 'Invalid' ? Number.NaN : iso);
  }
  return value.startsWith(ESCAPED) ? value.slice(ESCAPED.length) : value;
}

export function decodeDoc<T = Record<string, unknown>>(text: string): T {
  // Most documents hold no date: skip the reviver's per-value call for them.
  return (text.includes(MARK) ? JSON.parse(text, reviver) : JSON.parse(text)) as T;
}
