// What the MongoDB adapter takes from a profile's `mongoProps`: the URL, the
// database, credentials and TLS, plus the host list and user used in messages.
// The password only ever goes to the driver; `redact` removes it from any text.
import type { MongoClientOptions } from 'mongodb';
import { redactText } from '../../secrets/classify';

export interface MongoProps {
  url?: string;
  db?: string;
  credentials?: { user?: string; passwd?: string; dbAuth?: boolean };
  ssl?: { enabled?: boolean; acceptInvalidCerts?: boolean; sslCA?: string };
  [key: string]: unknown;
}

export interface MongoSettings {
  url: string;
  db: string;
  /** "db1.example:27017,db2.example:27017", never with credentials. */
  hosts: string;
  user?: string;
  authSource?: string;
  timeoutMs: number;
  options: MongoClientOptions;
  redact(text: string): string;
}

export const DEFAULT_DB = 'automation';
export const SERVER_SELECTION_TIMEOUT_MS = 5000;

export function mongoSettings(props: MongoProps, timeoutMs = SERVER_SELECTION_TIMEOUT_MS): MongoSettings {
  const url = String(props.url ?? '');
  const { hosts, user: urlUser, password: urlPassword, db: urlDb, srv } = parseUrl(url);
  const db = props.db || urlDb || DEFAULT_DB;
  const creds = props.credentials ?? {};
  const user = creds.user || urlUser || undefined;
  const secrets = [creds.passwd, urlPassword].filter((s): s is string => typeof s === 'string' && s.length > 0);

  const options: MongoClientOptions = {
    serverSelectionTimeoutMS: timeoutMs,
    connectTimeoutMS: timeoutMs,
    appName: 'automation-console',
    // Binary data (BinData: a GridFS chunk) reads back as a Buffer, as the embedded store gives it.
    promoteBuffers: true,
  };
  let authSource: string | undefined;
  if (creds.user) {
    options.auth = { username: creds.user, password: creds.passwd ?? '' };
    // dbAuth: the user is defined in the profile's database; otherwise in admin.
    authSource = creds.dbAuth ? db : 'admin';
    options.authSource = authSource;
  } else if (urlUser) {
    authSource = /[?&]authSource=([^&]+)/.exec(url)?.[1] ?? (urlDb || 'admin');
  }
  const ssl = props.ssl ?? {};
  if (ssl.enabled) {
    options.tls = true;
    if (ssl.acceptInvalidCerts) {
      options.tlsAllowInvalidCertificates = true;
      options.tlsAllowInvalidHostnames = true;
    }
    if (ssl.sslCA) {
      // Either the CA certificate itself (PEM) or the path of its file.
      if (ssl.sslCA.includes('-----BEGIN')) options.ca = ssl.sslCA;
      else options.tlsCAFile = ssl.sslCA;
    }
  }

  // Userinfo of any mongodb URL, then what the one classifier finds (query passwords, keys), then the known secrets.
  const redact = (text: string) =>
    redactText(
      text.replace(/(mongodb(?:\+srv)?:\/\/)[^@/\s]*@/g, '$1***@'),
      secrets.flatMap((secret) => [secret, encodeURIComponent(secret)]),
    );

  return { url, db, hosts: hosts || (srv ? '(srv)' : '(no host)'), user, authSource, timeoutMs, options, redact };
}

function parseUrl(url: string) {
  const match = /^(mongodb(?:\+srv)?):\/\/([^/?]*)(?:\/([^?]*))?/.exec(url);
  if (!match) return { hosts: '', db: undefined, srv: false };
  const srv = match[1] === 'mongodb+srv';
  let authority = match[2] ?? '';
  let user: string | undefined;
  let password: string | undefined;
  const at = authority.lastIndexOf('@');
  if (at >= 0) {
    const info = authority.slice(0, at);
    authority = authority.slice(at + 1);
    const colon = info.indexOf(':');
    user = safeDecode(colon >= 0 ? info.slice(0, colon) : info);
    password = colon >= 0 ? safeDecode(info.slice(colon + 1)) : undefined;
  }
  const hosts = authority
    .split(',')
    .filter(Boolean)
    .map((h) => (srv || /:\d+$/.test(h) ? h : `${h}:27017`))
    .join(',');
  return { hosts, user, password, db: match[3] ? safeDecode(match[3]) : undefined, srv };
}

function safeDecode(text: string) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
