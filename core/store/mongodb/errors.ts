// Turns the driver's errors into StoreErrors that say what failed and where:
// "cannot reach MongoDB at db1.example:27017 within 5 s: connection refused",
// "authentication failed for user itential on db pronghorn". Every message goes
// through the profile's `redact`, so a password never leaves here.
import { StoreError } from '../errors';
import { systemErrorCode } from '../../errors';
import type { MongoSettings } from './settings';

type DriverError = Error & {
  code?: number | string;
  codeName?: string;
  keyValue?: unknown;
  errmsg?: string;
  cause?: unknown;
  reason?: { servers?: Map<string, { error?: unknown }> };
};

/** The driver's errors are Errors carrying some of these fields (each optional, each checked where read). */
const isDriverError = (value: unknown): value is DriverError => value instanceof Error;

export function rewriteMongoError(error: unknown, s: MongoSettings, collection?: string): StoreError {
  if (error instanceof StoreError) return new StoreError(error.reason, s.redact(error.message));
  const e = isDriverError(error) ? error : undefined;
  const where = collection ? ` (collection ${collection})` : '';
  const make = (code: ConstructorParameters<typeof StoreError>[0], message: string) => new StoreError(code, s.redact(message));

  if (isAuthFailure(e)) return make('auth', `authentication failed for user ${s.user ?? '(none)'} on db ${s.authSource ?? s.db}`);
  if (e?.name === 'MongoServerSelectionError' || e?.name === 'MongoTopologyClosedError') {
    const inner = selectionCause(e);
    if (inner && isAuthFailure(inner)) return make('auth', `authentication failed for user ${s.user ?? '(none)'} on db ${s.authSource ?? s.db}`);
    return make('unreachable', `cannot reach MongoDB at ${s.hosts} within ${seconds(s.timeoutMs)} s: ${describeCause(inner ?? e)}`);
  }
  if (e?.name === 'MongoNetworkError' || e?.name === 'MongoNetworkTimeoutError') {
    return make('unreachable', `lost the connection to MongoDB at ${s.hosts}: ${describeCause(e)}`);
  }
  if (e?.name === 'MongoParseError' || e?.name === 'MongoInvalidArgumentError') {
    return make('invalid', `mongoProps.url is not a usable MongoDB URL: ${e.message}`);
  }
  switch (e?.code) {
    case 11000:
    case 11001:
      return make('duplicate-key', `duplicate key in collection ${collection ?? '?'}${duplicateDetail(e)}`);
    case 85:
    case 86:
      return make('index-conflict', `index conflict${where}: ${e.message}`);
    case 27:
      return make('index-not-found', `index not found${where}: ${e.message}`);
    case 13:
      return make('auth', `user ${s.user ?? '(none)'} is not authorized on db ${s.db}${where}: ${e.message}`);
  }
  // The server (or the driver's serializer) refusing a document's field names is the document's fault.
  if (e && REFUSED_FIELD_NAME.test(e.message)) return make('invalid', `MongoDB at ${s.hosts} (db ${s.db})${where}: ${e.message}`);
  return make('failed', `MongoDB at ${s.hosts} (db ${s.db})${where}: ${e?.message ?? String(error)}`);
}

/** MongoDB's and the driver's wordings for a key with '.' or a leading '$'. */
const REFUSED_FIELD_NAME = /field names? cannot|dotted field|\$[- ]?prefixed field|not valid for storage|key .* must not/i;

const seconds = (ms: number) => Math.round((ms / 1000) * 10) / 10;

function isAuthFailure(e: DriverError | undefined) {
  return !!e && (e.code === 18 || e.codeName === 'AuthenticationFailed' || /authentication failed/i.test(e.message ?? ''));
}

function selectionCause(e: DriverError): DriverError | undefined {
  for (const description of e.reason?.servers?.values() ?? []) {
    if (isDriverError(description.error)) return description.error;
  }
  return isDriverError(e.cause) ? e.cause : undefined;
}

function describeCause(e: DriverError): string {
  const text = `${e.message ?? ''} ${e.cause instanceof Error ? e.cause.message : ''}`;
  const code = systemErrorCode(e.cause) ?? (typeof e.code === 'string' ? e.code : undefined);
  if (code === 'ECONNREFUSED' || /ECONNREFUSED/.test(text)) return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || /ENOTFOUND|EAI_AGAIN/.test(text)) return 'host not found';
  if (code === 'ECONNRESET' || /ECONNRESET/.test(text)) return 'connection reset';
  if (code === 'EHOSTUNREACH' || /EHOSTUNREACH|ENETUNREACH/.test(text)) return 'host unreachable';
  if (/certificate|SSL|TLS|self[- ]signed/i.test(text)) return `TLS failed: ${e.message}`;
  if (/timed out|ETIMEDOUT|Server selection timed out/i.test(text)) return 'no answer (timed out)';
  return e.message || 'no server answered';
}

function duplicateDetail(e: DriverError) {
  const index = /index: (\S+)/.exec(e.message)?.[1];
  const key = e.keyValue ? JSON.stringify(e.keyValue) : /dup key: (\{.*\})/.exec(e.message)?.[1];
  return `${index ? ` (index ${index})` : ''}${key ? `: ${key} already exists` : ''}`;
}
