// Runs one operation of the contract for either transport: validates each part of
// the input against the operation's schemas, calls its handler and shapes errors.
// HTTP routes and Electron IPC handlers both go through `dispatch`, so an
// operation is validated and answered the same way whichever way it was called.
import { z } from 'zod';
import {
  contract,
  describeIssues,
  ERROR_NAMES,
  type Contract,
  type ErrorBody,
  type Input,
  type Operation,
  type OperationName,
  type Output,
} from '../contract';
import { MAX_DEPTH, shortPath, tooDeep } from './limits';
import { redactText } from '../secrets/classify';

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

/** An error an operation answers with on purpose: its status code says whose fault it is. */
export class OpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

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
    throw new OpError(400, `${part}: ${message}`, { issues: [{ path: where.length > 200 ? part : where, message }] });
  }
  const result = schema.safeParse(value ?? (part === 'body' ? undefined : {}));
  if (result.success) return result.data;
  const issues = describeIssues(part, result.error);
  const message = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
  throw new OpError(400, message, { issues });
}

export async function dispatch(
  handlers: Handlers,
  name: OperationName,
  raw: RawInput,
  ctx: CallContext,
): Promise<unknown> {
  const operation: Operation = contract[name];
  const input = {
    params: parsePart('params', operation.params, raw.params),
    query: parsePart('query', operation.query, raw.query),
    body: parsePart('body', operation.body, raw.body),
  };
  const handler = handlers[name] as (input: unknown, ctx: CallContext) => unknown;
  return await handler(input, ctx);
}

/**
 * What a store refusal means to the caller: a document it cannot keep (a key with '.' or a
 * leading '$' on a store that refuses them, a bad collection name) is the request's fault, 400;
 * a unique key already taken, 409; a database that cannot be reached, 503.
 */
function storeStatus(error: Error & { code?: unknown }): number | undefined {
  if (error.name !== 'StoreError') return undefined;
  if (error.code === 'invalid') return 400;
  if (error.code === 'duplicate-key') return 409;
  if (error.code === 'unreachable' || error.code === 'auth') return 503;
  if (/field names? cannot|dotted field|\$[- ]?prefixed field|not valid for storage|key .* must not/i.test(error.message)) return 400;
  return undefined;
}

/** The JSON body of an error, the same for both transports; never a stack trace. */
export function errorBody(error: unknown): ErrorBody {
  if (error instanceof OpError) {
    return {
      statusCode: error.statusCode,
      error: ERROR_NAMES[error.statusCode] ?? 'Error',
      message: error.message,
      ...error.details,
    };
  }
  // An unexpected error's message may quote a connection string or a config: secrets masked.
  const message = redactText(error instanceof Error ? error.message : String(error));
  const stored = error instanceof Error ? storeStatus(error) : undefined;
  if (stored) {
    const prefix = stored === 400 ? 'the store cannot keep this data: ' : '';
    return { statusCode: stored, error: ERROR_NAMES[stored]!, message: prefix + message };
  }
  return { statusCode: 500, error: ERROR_NAMES[500]!, message };
}
