// The one table of what an error means to a caller: for each code, the HTTP status the
// REST API answers with and the `error` name both transports put in the body (the IPC
// answer carries the same body: `{ ok: false, error: { statusCode, error, message, ... } }`).
// The HTTP server and Electron IPC both shape errors through core/dispatch, which reads this table.

export const ERROR_CODES = {
  /** The request itself is wrong: a field, a value, a document the store cannot keep. */
  bad_input: { status: 400, error: 'Bad Request' },
  /** No or a wrong bearer token. */
  unauthorized: { status: 401, error: 'Unauthorized' },
  /** The caller may not do this (an IPC sender that is not the console window). */
  forbidden: { status: 403, error: 'Forbidden' },
  not_found: { status: 404, error: 'Not Found' },
  /** The HTTP method is not served on this route. */
  method_not_allowed: { status: 405, error: 'Method Not Allowed' },
  not_acceptable: { status: 406, error: 'Not Acceptable' },
  /** A name already taken, a state that does not allow the action (a job already ended...). */
  conflict: { status: 409, error: 'Conflict' },
  /** An API the service removed in this release. */
  gone: { status: 410, error: 'Gone' },
  too_large: { status: 413, error: 'Payload Too Large' },
  uri_too_long: { status: 414, error: 'URI Too Long' },
  unsupported_media: { status: 415, error: 'Unsupported Media Type' },
  /** A request sent under a Host name the console does not serve. */
  misdirected: { status: 421, error: 'Misdirected Request' },
  /** Well-formed input whose content cannot be processed (a transformation that fails on it). */
  unprocessable: { status: 422, error: 'Unprocessable Entity' },
  too_many_requests: { status: 429, error: 'Too Many Requests' },
  header_too_large: { status: 431, error: 'Request Header Fields Too Large' },
  /** A bug or a failure nobody planned for. */
  internal: { status: 500, error: 'Internal Server Error' },
  /** Something the console depends on is down: the store unreachable, damaged or read-only. */
  unavailable: { status: 503, error: 'Service Unavailable' },
} as const satisfies Record<string, { status: number; error: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;
export type ErrorStatus = (typeof ERROR_CODES)[ErrorCode]['status'];

const codes = Object.keys(ERROR_CODES).filter((key): key is ErrorCode => key in ERROR_CODES);
const byStatus: ReadonlyMap<number, ErrorCode> = new Map(codes.map((code) => [ERROR_CODES[code].status, code]));

export const isErrorCode = (value: unknown): value is ErrorCode => typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);

/** The code of an HTTP status (a status a library such as Fastify chose); an unknown 4xx is bad_input, anything else internal. */
export function codeOfStatus(status: number): ErrorCode {
  return byStatus.get(status) ?? (status >= 400 && status < 500 ? 'bad_input' : 'internal');
}

export const statusOf = (code: ErrorCode): ErrorStatus => ERROR_CODES[code].status;

/** Whether an answer's status is the server's fault (5xx), not the caller's: logged with its cause. */
export const isServerFault = (status: number): boolean => status >= ERROR_CODES.internal.status;

/** Whether a code refuses the caller's request (4xx: bad input, a state that does not allow it...), not a failure of the server. */
export const isRefusal = (code: ErrorCode): boolean => !isServerFault(statusOf(code));
