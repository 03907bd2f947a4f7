// Safe identifiers: the schemas of every id or name that reaches a path parameter. A path
// parameter uses the same schema as the body field it names, so a value the console would
// never create (a `/`, `..`, a NUL, a name Windows reserves, a name longer than any real one)
// is answered 400 before any file or store access. Browser-safe: zod only.
import { z } from 'zod';

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)(\..*)?$/i;
const CONTROL = /[\u0000-\u001f\u007f]/;

const notReserved = (id: string) => !WINDOWS_RESERVED.test(id.trim());
const RESERVED_MESSAGE = 'must not be a name reserved by Windows (CON, NUL, COM1, ...)';

/** Profile ids and the other ids that name a folder or file: `profiles/<id>/`. */
export const SafeId = z
  .string({ error: 'must be a string' })
  .max(64, { message: 'must be at most 64 characters' })
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, {
    message: "must be a safe name: 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit",
  })
  .refine((id) => !id.includes('..'), { message: "must not contain '..'" })
  .refine(notReserved, { message: RESERVED_MESSAGE })
  .refine((id) => !id.endsWith('.'), { message: "must not end with '.'" });

/**
 * Adapter and application names: the service allows spaces and most punctuation in them, and an
 * adapter's name can name its folder, so what a file name cannot hold is refused.
 */
export const SafeName = z
  .string({ error: 'must be a string' })
  .min(1, { message: 'must not be empty' })
  .max(128, { message: 'must be at most 128 characters' })
  .refine((name) => !CONTROL.test(name), { message: 'must not contain control characters (NUL, newline, ...)' })
  .refine((name) => !/[/\\<>:"|?*]/.test(name), { message: 'must not contain / \\ < > : " | ? or *' })
  .refine((name) => !name.includes('..'), { message: "must not contain '..'" })
  .refine((name) => name.trim() === name && !name.endsWith('.'), { message: "must not start or end with a space, or end with '.'" })
  .refine(notReserved, { message: RESERVED_MESSAGE });

/**
 * Names of documents in the store (workflow names): never a file path, so a `/` inside a name
 * is kept as the service keeps it; what no real name carries (control characters, a `..`
 * segment, a leading slash, a reserved device name, more than 200 characters) is refused.
 */
export const DocumentName = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, { message: 'must not be empty' })
  .max(200, { message: 'must be at most 200 characters' })
  .refine((name) => !CONTROL.test(name), { message: 'must not contain control characters (NUL, newline, ...)' })
  .refine((name) => !/(^|[/\\])\.\.?([/\\]|$)/.test(name) && !/^[/\\]/.test(name), {
    message: "must not be a path: no '.' or '..' segment, no leading '/' or '\\'",
  })
  .refine(notReserved, { message: RESERVED_MESSAGE });

/**
 * Collection names: MongoDB's rules (no `$`, no NUL, not `system.`), and each is a file of the
 * embedded store, so letters, digits, '_', '.' and '-' only.
 */
export const CollectionName = z
  .string({ error: 'must be a string' })
  .max(120, { message: 'must be at most 120 characters' })
  .regex(/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/, {
    message: "must be a collection name: 1 to 120 letters, digits, '_', '.' or '-', starting with a letter, digit or '_'",
  })
  .refine((name) => !name.includes('..') && !name.endsWith('.'), { message: "must not contain '..' or end with '.'" })
  .refine((name) => !name.startsWith('system.'), { message: "must not start with 'system.' (reserved by MongoDB)" })
  .refine(notReserved, { message: RESERVED_MESSAGE });

/** Record ids made by the console or the service (job ids, task ids, run ids). */
export const RecordId = z
  .string({ error: 'must be a string' })
  .min(1, { message: 'must not be empty' })
  .max(128, { message: 'must be at most 128 characters' })
  .refine((id) => !CONTROL.test(id), { message: 'must not contain control characters (NUL, newline, ...)' })
  .refine((id) => !/[/\\]/.test(id) && !id.includes('..'), { message: "must not contain '/', '\\' or '..'" })
  .refine((id) => !id.startsWith('$'), { message: "must not start with '$'" })
  .refine(notReserved, { message: RESERVED_MESSAGE });
