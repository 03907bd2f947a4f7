// Safe identifiers: the schemas of every id or name that reaches a path parameter. A path
// parameter uses the same schema as the body field it names, so a value the console would
// never create (a `/`, `..`, a NUL, a name Windows reserves, a name longer than any real one)
// is answered 400 before any file or store access. Each value gets one message, the first
// rule it breaks. Browser-safe: zod only.
import { z } from 'zod';

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)(\..*)?$/i;
// eslint-disable-next-line no-control-regex -- an id with a control character is refused: this finds one
const CONTROL = /[\u0000-\u001f\u007f]/;

type Rule = [ok: (value: string) => boolean, message: string];

/** A string schema that reports the first rule a value breaks. */
function ruled(rules: Rule[], options: { trim?: boolean } = {}) {
  const base = z.string({ error: 'must be a string' });
  return (options.trim ? base.trim() : base).superRefine((value, ctx) => {
    const broken = rules.find(([ok]) => !ok(value));
    if (broken) ctx.addIssue({ code: 'custom', message: broken[1] });
  });
}

const notReserved: Rule = [(v) => !WINDOWS_RESERVED.test(v.trim()), 'must not be a name reserved by Windows (CON, NUL, COM1, ...)'];
const noControl: Rule = [(v) => !CONTROL.test(v), 'must not contain control characters (NUL, newline, ...)'];
const notEmpty: Rule = [(v) => v.length > 0, 'must not be empty'];
const atMost = (n: number): Rule => [(v) => v.length <= n, `must be at most ${n} characters`];

/** Profile ids and the other ids that name a folder or file: `profiles/<id>/`. */
export const SafeId = ruled([
  [
    (v) => /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(v),
    "must be a safe name: 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit",
  ],
  [(v) => !v.includes('..'), "must not contain '..'"],
  notReserved,
  [(v) => !v.endsWith('.'), "must not end with '.'"],
]);

/**
 * Adapter and application names: the service allows spaces and most punctuation in them, and an
 * adapter's name can name its folder, so what a file name cannot hold is refused.
 */
export const SafeName = ruled([
  notEmpty,
  atMost(128),
  noControl,
  [(v) => !/[/\\<>:"|?*]/.test(v), 'must not contain / \\ < > : " | ? or *'],
  [(v) => !v.includes('..'), "must not contain '..'"],
  [(v) => v.trim() === v && !v.endsWith('.'), "must not start or end with a space, or end with '.'"],
  notReserved,
]);

/**
 * Names of documents in the store (workflow names): never a file path, so a `/` inside a name
 * is kept as the service keeps it; what no real name carries (control characters, a `..`
 * segment, a leading slash, a reserved device name, more than 200 characters) is refused.
 */
export const DocumentName = ruled(
  [
    notEmpty,
    atMost(200),
    noControl,
    [(v) => !/(^|[/\\])\.\.?([/\\]|$)/.test(v) && !/^[/\\]/.test(v), "must not be a path: no '.' or '..' segment, no leading '/' or '\\'"],
    notReserved,
  ],
  { trim: true },
);

/**
 * Collection names: MongoDB's rules (no `$`, no NUL, not `system.`), and each is a file of the
 * embedded store, so letters, digits, '_', '.' and '-' only.
 */
export const CollectionName = ruled([
  [
    (v) => /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,119}$/.test(v),
    "must be a collection name: 1 to 120 letters, digits, '_', '.' or '-', starting with a letter, digit or '_'",
  ],
  [(v) => !v.includes('..') && !v.endsWith('.'), "must not contain '..' or end with '.'"],
  [(v) => !v.startsWith('system.'), "must not start with 'system.' (reserved by MongoDB)"],
  notReserved,
]);

/** Record ids made by the console or the service (job ids, task ids, run ids, transformation ids). */
export const RecordId = ruled([
  notEmpty,
  atMost(128),
  noControl,
  [(v) => !/[/\\]/.test(v) && !v.includes('..'), "must not contain '/', '\\' or '..'"],
  [(v) => !v.startsWith('$'), "must not start with '$'"],
  notReserved,
]);
