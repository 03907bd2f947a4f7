// Which values are secrets: one classifier for the whole console (the profile API's masks, the
// log's redaction). A key is secret by its name; a string carries a secret when it is a URL
// with a password in it. Extend the rules here and every user of the classifier follows.
import { SECRET_MASK } from '../contract/profiles';

export { SECRET_MASK };

/** Keys whose string values are secrets wherever they appear. */
const SECRET_KEY = /^(passwd|password|secret|token|api[_-]?key|client[_-]?secret|secret[_-]?id|private[_-]?key|authorization)$/i;

/** A password inside a connection URL: `mongodb://user:<password>@host`. */
export const URL_PASSWORD = /^([a-z][a-z0-9+.-]*:\/\/[^:@/?#\s]*:)([^@/?#\s]+)(@)/i;
const URL_PASSWORD_ANYWHERE = /\b([a-z][a-z0-9+.-]*:\/\/[^:@/?#\s]*:)([^@/?#\s]+)(@)/gi;

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/** The string with every URL password in it replaced by the mask. */
export function redactString(text: string): string {
  return text.replace(URL_PASSWORD_ANYWHERE, (_all, head: string, password: string, at: string) => (password === SECRET_MASK ? `${head}${password}${at}` : `${head}${SECRET_MASK}${at}`));
}

/** A copy of `value` with every secret (by key, or a URL password in a string) masked. */
export function redactSecrets<T>(value: T): T {
  const visit = (node: unknown, depth: number): unknown => {
    if (typeof node === 'string') return redactString(node);
    if (depth > 20 || node === null || typeof node !== 'object') return node;
    if (Array.isArray(node)) return node.map((item) => visit(item, depth + 1));
    return Object.fromEntries(
      Object.entries(node).map(([key, item]) => [key, isSecretKey(key) && typeof item === 'string' && item !== '' ? SECRET_MASK : visit(item, depth + 1)]),
    );
  };
  return visit(value, 0) as T;
}
