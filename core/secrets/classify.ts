// The one classifier of what is a secret. Masking (API answers, exports), sealing at rest, the
// upgrade check's carried configs, log lines, error messages and the environment of child
// processes all ask here, so a secret found by one is found by all.
//
// A secret is: the value of a key named like a password or token (passwd, password, pwd, pass,
// passphrase, secret, token, api key, private key, ...Password), the password of a URL
// (`scheme://user:<password>@host`), a password query parameter (`?password=`,
// `tlsCertificateKeyFilePassword=`, `password2=` in a form body, `session=`), a PEM private key
// wherever it is pasted, a session (a cookie, `Set-Cookie`, `X-Session-Id`, a session id), a JWT
// wherever it is written, an SNMP community string, a one-time code (OTP), an OAuth
// `client_assertion`. Not a secret: a
// boolean or number, an empty string, a file path (`vaultProps.token: "/opt/.../token.txt"`
// names where the token is), and the service's own protected forms (`$ENC...` sealed by the
// service, `$SECRET_<path> $KEY_<key>` references into Vault), which are kept as written.

/** What the API shows instead of a secret's value. */
export const MASK = '********';

const KEY_WORDS = String.raw`passw(or)?d|pwd|pass|passphrase|secret|token|api[_-]?key|apikey|private[_-]?key|client[_-]?secret|secret[_-]?id|auth[_-]?key|access[_-]?key|credentials?[_-]?key`;
/** The whole key is a secret word: `passwd`, `pass`, `api_key`, `token`. */
const WHOLE_KEY = new RegExp(`^(${KEY_WORDS})$`, 'i');
/** A compound ending in one: `adminPassword`, `db_pass`, `tlsCertificateKeyFilePassword`, `accessToken`. */
const COMPOUND_KEY = /(^|[_.-]|[a-z0-9])(Passw(or)?d|Pwd|Pass|Passphrase|Secret|Token|ApiKey|PrivateKey)$|[_.-](passw(or)?d|pwd|pass|passphrase|secret|token|api[_-]?key|private[_-]?key)$/;
/**
 * The last word of a name (or its last two joined: `pass_phrase`, `API-KEY`) that makes its value a
 * secret, whatever the case and separators: `DB_PASSWORD`, `X-API-KEY`, `Authorization`, `basic_auth`.
 */
const SECRET_WORD = /^(pass|passwd|password|pwd|passphrase|passcode|secret|token|key|apikey|privatekey|auth|authorization|credential|credentials|cred|creds|cookie|cookies|session|sessionid|sessid|jsessionid|phpsessid|jwt|otp|totp|hotp|community|communitystring|assertion)\d*$/;
/** A name whose value is a one-time code or PIN: a secret even as a number (`"otp": 482913`). */
const CODE_WORD = /^(otp|totp|hotp|pin|passcode)$/;

/** The words of a name: split at `_`, `-`, `.`, spaces and camelCase, lower-cased. */
function wordsOf(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_.\-:/]+/)
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase());
}

/** Whether a key's value is a secret by its name. */
export function isSecretKey(key: string): boolean {
  if (WHOLE_KEY.test(key) || COMPOUND_KEY.test(key)) return true;
  // A trailing number names another of the same (`password2`, `community_2`).
  const words = wordsOf(key.replace(/[_.-]?\d+$/, ''));
  const last = words.at(-1) ?? '';
  return SECRET_WORD.test(last) || SECRET_WORD.test(words.slice(-2).join(''));
}

/** The service's own protected forms: kept as the service wrote them, never sealed again or masked. */
export function isServiceProtected(value: string): boolean {
  return /^\$ENC[0-9a-f]+$/i.test(value.trim()) || /^\$SECRET_\S+ \$KEY_\S+$/.test(value.trim());
}

/** A value that names a file rather than holding a secret: an absolute or home or ./ path, or a `file://` URL. */
export function looksLikePath(value: string): boolean {
  const v = value.trim();
  if (/\s/.test(v) && !/^[A-Za-z]:\\/.test(v)) return false;
  return /^(\/|~\/|\.{1,2}\/|[A-Za-z]:\\|file:\/\/)/.test(v) && !/^\/\//.test(v);
}

/** A credential given with its scheme (`Bearer eyJ...`, `Basic dXNlcjpw...`): at least 8 token characters, so prose is left alone. */
const SCHEME_CREDENTIAL = /\b(Bearer|Basic|Token)( +)([A-Za-z0-9\-._~+/]{8,}=*)/g;
/** A JWT (or JWS/JWE) wherever it is written: a base64url `{"` header, then two to four more dotted parts. */
const JWT_SHAPED = /\beyJ[A-Za-z0-9_-]{4,}(?:\.[A-Za-z0-9_-]*){2,4}/g;
/** A session carried in a header written out (`Cookie: a=b; c=d`, `Set-Cookie: ...`, `X-Session-Id: ...`): its whole value. */
const HEADER_SECRET = /\b((?:Set-)?Cookie|X-Session-Id|X-Auth-Token|X-Api-Key|X-Csrf-Token|X-Xsrf-Token)(\s*:\s*)([^\r\n"\\]+)/gi;
const PEM_PRIVATE = /-----BEGIN ((?:RSA |EC |DSA |OPENSSH |ENCRYPTED )?PRIVATE KEY)-----[\s\S]*?(-----END \1-----|$)/g;
/** Query parameters that carry a password, e.g. `?password=`, `tlsCertificateKeyFilePassword=`, `authMechanismProperties=...`. */
const QUERY_SECRET =
  /((?:^|[?&;\s])(?:[A-Za-z0-9_.-]*(?:password|passwd|pwd|pass|secret|token|apikey|api[_-]?key|key|auth|sig|signature|credentials?|session|sessionid|sessid|sid|jwt|otp|community|assertion|cookie))\d*=)([^&;#\s"'\\]*)/gi;
/**
 * A URL's userinfo password: up to the LAST `@` before the path, so an unescaped `@` inside the
 * password is masked whole (`mongodb://u:p@ss@host` → `mongodb://u:********@host`).
 */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/[^:@/?#\s"']*:)([^/?#\s"']*)@(?=[^@/?#\s"']*(?:[/?#\s"']|$))/gi;

/**
 * Calls `replace` for each secret a string carries (a URL password, a password query parameter,
 * a PEM private key's body) and puts its answer in place of the secret; the rest is kept.
 */
export function mapSecretsInText(text: string, replace: (secret: string) => string): string {
  return text
    .replace(PEM_PRIVATE, (all, kind: string, end: string) => {
      const body = all.slice(`-----BEGIN ${kind}-----`.length, all.length - end.length);
      return `-----BEGIN ${kind}-----${replace(body)}${end}`;
    })
    .replace(URL_USERINFO, (all, head: string, password: string) => (password === '' ? all : `${head}${replace(password)}@`))
    .replace(HEADER_SECRET, (all, name: string, sep: string, value: string) => (value.trim() === '' || value.trim() === MASK ? all : `${name}${sep}${replace(value.trimEnd())}${value.slice(value.trimEnd().length)}`))
    .replace(QUERY_SECRET, (all, head: string, value: string) => (value === '' ? all : `${head}${replace(value)}`))
    .replace(SCHEME_CREDENTIAL, (all, scheme: string, space: string, credential: string) => (credential === MASK ? all : `${scheme}${space}${replace(credential)}`))
    .replace(JWT_SHAPED, (jwt) => replace(jwt));
}

/** The secrets a string carries, in clear, in the order `mapSecretsInText` meets them. */
export function secretsInText(text: string): string[] {
  const found: string[] = [];
  mapSecretsInText(text, (secret) => (found.push(secret), secret));
  return found.filter((secret) => secret !== MASK);
}

/** A string with every secret it carries masked. */
export function maskInText(text: string, mask = MASK): string {
  return mapSecretsInText(text, (secret) => (secret === mask ? secret : mask));
}

export type FieldClass =
  /** The whole value is a secret: masked whole, sealed at rest when asked. */
  | 'secret'
  /** The value carries a secret inside (a URL with a password, a PEM key pasted in text). */
  | 'contains-secret'
  | 'plain';

/** What a key/value pair of a config is. */
export function classifyField(key: string, value: unknown): FieldClass {
  if (typeof value === 'number' && CODE_WORD.test(wordsOf(key).at(-1) ?? '')) return 'secret';
  if (typeof value !== 'string' || value === '' || value === MASK) return 'plain';
  if (isServiceProtected(value)) return 'plain';
  if (isSecretKey(key)) return looksLikePath(value) ? 'plain' : 'secret';
  return secretsInText(value).length > 0 ? 'contains-secret' : 'plain';
}

/**
 * Text for a log line or an error message: secrets inside masked, and each of `known` (clear
 * values the caller holds, e.g. the password it connected with) replaced wherever it appears.
 */
export function redactText(text: string, known: (string | undefined)[] = []): string {
  let out = maskInText(text);
  // `"passwd":"x"`, `password=x`, `token: x` written out in a message.
  out = out.replace(
    /(["']?)([A-Za-z0-9_.-]*(?:passw(?:or)?d|pwd|secret|token|api[_-]?key|cookie|session(?:[_-]?id)?|sessid|jwt|otp|community|assertion)\d*)\1(\s*[:=]\s*)(["']?)(?![[{])([^"'\s,;&}\]]+)\4/gi,
    // eslint-disable-next-line @typescript-eslint/max-params -- String.replace hands the groups over as parameters
    (all, q: string, key: string, sep: string, vq: string, value: string) =>
      value === MASK || looksLikePath(value) ? all : `${q}${key}${q}${sep}${vq}${MASK}${vq}`,
  );
  for (const secret of known) if (secret && secret.length >= 3) out = out.split(secret).join(MASK);
  return out;
}

/**
 * Whether a text may carry a secret at all: a cheap test before the walk (the log asks it of
 * every line). False only when no name, shape or separator the classifier knows is in it.
 */
export function mayCarrySecret(text: string): boolean {
  return /pass|pwd|secret|token|key|auth|credential|cookie|sess|sid|jwt|eyJ|otp|pin|community|assertion|:\/\/|=|BEGIN|Bearer|Basic/i.test(text);
}

/** Environment variables of the console that a child process must not inherit. */
const CONSOLE_ONLY_ENV = /^(CONSOLE_TOKEN|CONSOLE_SECRET_KEY)$/;

/** The environment for an adapter or other child: without the console's token and any variable holding a secret. */
export function childEnvironment(env: NodeJS.ProcessEnv = process.env): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(env)) {
    if (CONSOLE_ONLY_ENV.test(name)) continue;
    // PWD is the working directory, not a password.
    if (name !== 'PWD' && name !== 'OLDPWD' && value !== undefined && classifyField(name.toLowerCase(), value) !== 'plain') continue;
    out[name] = value;
  }
  return out;
}

/**
 * A copy of `value` (a log entry, an error's fields) with every secret masked: the value of a
 * field classified as a secret, and each secret carried inside a string.
 */
export function redactSecrets<T>(value: T): T {
  // A field's value: masked whole when its name makes it a secret, each item of a list so named
  // (`"set-cookie": ["a=b", "c=d"]`), else walked.
  const field = (key: string, item: unknown, depth: number): unknown => {
    if (classifyField(key, item) === 'secret') return MASK;
    if (Array.isArray(item) && isSecretKey(key)) return item.map((each) => field(key, each, depth + 1));
    return visit(item, depth + 1);
  };
  const visit = (node: unknown, depth: number): unknown => {
    if (typeof node === 'string') return redactText(node);
    if (depth > 20 || node === null || typeof node !== 'object') return node;
    if (Array.isArray(node)) return node.map((item) => visit(item, depth + 1));
    return Object.fromEntries(Object.entries(node).map(([key, item]) => [key, field(key, item, depth)]));
  };
  return visit(value, 0) as T;
}

/** Every secret `value` holds in clear (fields classified as secrets, secrets inside strings), to mask where they appear unnamed. */
export function secretValues(value: unknown): string[] {
  const found: string[] = [];
  const visit = (node: unknown, key: string, depth: number) => {
    if (typeof node === 'string') {
      const kind = classifyField(key, node);
      if (kind === 'secret') found.push(node);
      else if (kind === 'contains-secret') found.push(...secretsInText(node));
      return;
    }
    if (depth > 20 || node === null || typeof node !== 'object') return;
    for (const [k, item] of Object.entries(node)) visit(item, Array.isArray(node) ? key : k, depth + 1);
  };
  visit(value, '', 0);
  return found.filter((secret) => !isServiceProtected(secret));
}
