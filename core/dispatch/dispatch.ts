// Runs one operation of the contract for either transport: validates each part of
// the input against the operation's schemas, calls its handler and shapes errors.
// HTTP routes and Electron IPC handlers both go through `dispatch`, so an
// operation is validated and answered the same way whichever way it was called.
import type { z } from 'zod';
import {
  contract,
  describeIssues,
  type Contract,
  type ErrorBody,
  type Input,
  type Operation,
  type OperationName,
  type Output,
} from '../contract';
import { MAX_DEPTH, moreValuesThan, shortPath, tooDeep, tooManyValues } from './limits';
import { redactText } from '../secrets/classify';
import { ConsoleError, DomainError, ERROR_CODES, answerOf, systemErrorCode } from '../errors';

export interface CallContext {
  transport: 'http' | 'ipc';
  /** Who called: the HTTP client's user agent and address, or `console` for the desktop window. */
  caller: string;
  /** Adds a response header (HTTP only; a no-op over IPC). */
  setHeader(name: string, value: string): void;
  /** Overrides the success status (HTTP only). */
  setStatus(code: number): void;
}

export type Handler<N extends OperationName> = (
  input: Input<Contract[N]>,
  ctx: CallContext,
) => Promise<Output<Contract[N]>> | Output<Contract[N]>;

export type Handlers = { [N in OperationName]: Handler<N> };

export interface RawInput {
  params?: unknown;
  query?: unknown;
  body?: unknown;
}

function parsePart(part: 'params' | 'query' | 'body', schema: z.ZodType | undefined, value: unknown) {
  if (!schema) return undefined;
  const deep = tooDeep(value);
  if (deep) {
    const where = [part, ...deep].join('.');
    const message = `nested deeper than ${MAX_DEPTH} levels (at ${shortPath([part, ...deep])})`;
    throw new ConsoleError('bad_input', `${part}: ${message}`, { issues: [{ path: where.length > 200 ? part : where, message }] });
  }
  const result = schema.safeParse(value ?? (part === 'body' ? undefined : {}));
  if (result.success) return result.data;
  const issues = describeIssues(part, result.error);
  const message = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
  throw new ConsoleError('bad_input', message, { issues });
}

export async function dispatch(
  handlers: Handlers,
  name: OperationName,
  raw: RawInput,
  ctx: CallContext,
): Promise<unknown> {
  const operation: Operation = contract[name];
  // An operation's own bound on a body's values: HTTP judged the text before parsing it, IPC is judged here.
  const most = operation.maxValues;
  if (most && ctx.transport !== 'http' && moreValuesThan(raw.body, most.values)) {
    const message = tooManyValues(most.values, most.what);
    throw new ConsoleError('too_large', message, { issues: [{ path: 'body', message: message.replace(/^body: /, '') }] });
  }
  const input = {
    params: parsePart('params', operation.params, raw.params),
    query: parsePart('query', operation.query, raw.query),
    body: parsePart('body', operation.body, raw.body),
  };
  const handler = handlers[name] as (input: unknown, ctx: CallContext) => unknown;
  return await handler(input, ctx);
}

/**
 * The JSON body of an error, the same for both transports; never a stack trace. Its status and
 * name come from the code's row in core/errors' table; an error that is not a ConsoleError is a
 * bug or an unplanned failure: 500, its message with any secret masked (it may quote a config).
 */
export function errorBody(error: unknown): ErrorBody {
  if (error instanceof DomainError) return errorBody(answerOf(error));
  if (error instanceof ConsoleError) {
    const { status, error: name } = ERROR_CODES[error.code];
    return { statusCode: status, error: name, message: error.answerMessage(), ...error.details };
  }
  const message = redactText(error instanceof Error ? error.message : String(error));
  // A write the disk refused (a profile save, a backup, any file): the console's own storage is down, not a bug.
  const disk = DISK_FAULTS[systemErrorCode(error) ?? ''];
  if (disk) return { statusCode: ERROR_CODES.unavailable.status, error: ERROR_CODES.unavailable.error, message: `${disk}: ${message}` };
  return { statusCode: ERROR_CODES.internal.status, error: ERROR_CODES.internal.error, message };
}

/** What the file system answers when it cannot take a write, as the store's safety names it. */
const DISK_FAULTS: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EIO: 'an I/O error',
};
