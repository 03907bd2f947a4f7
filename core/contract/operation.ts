// The shape of one operation of the console's contract. Browser-safe: zod only.
// An operation is the single definition that both transports (HTTP routes and
// Electron IPC handlers) and the renderer's client are built from.
import type { z } from 'zod';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Operation {
  method: Method;
  /** Fastify-style path, e.g. `/profiles/:id`. */
  path: string;
  summary: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  output: z.ZodType;
  /**
   * A lower bound than the console's on the values (objects, arrays, scalars) one body may hold,
   * and what the limit is named in its answer: refused with a 413 naming it, before the body is
   * parsed (HTTP) or handled (IPC). Bounds the memory and event-loop time one call may take.
   */
  maxValues?: { values: number; what: string };
}

export type OperationTable = Record<string, Operation>;

export const defineOperations = <T extends OperationTable>(table: T): T => table;

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;
type Raw<S> = S extends z.ZodType ? z.input<S> : undefined;

/** What a handler receives, after validation. */
export interface Input<O extends Operation> {
  params: Parsed<O['params']>;
  query: Parsed<O['query']>;
  body: Parsed<O['body']>;
}

/** What a caller sends, before validation. Parts the operation does not declare are omitted. */
export type CallInput<O extends Operation> = (O['params'] extends z.ZodType ? { params: Raw<O['params']> } : { params?: undefined }) &
  (O['query'] extends z.ZodType ? { query?: Raw<O['query']> } : { query?: undefined }) &
  (O['body'] extends z.ZodType ? { body: Raw<O['body']> } : { body?: undefined });

export type Output<O extends Operation> = z.output<O['output']>;

/** The error every transport reports the same way: an HTTP status, a code and a message naming the cause. */
export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  issues?: { path: string; message: string }[];
  [extra: string]: unknown;
}

/** Turn zod issues into `part.field.path: message` entries. */
export function describeIssues(part: string, error: z.ZodError): { path: string; message: string }[] {
  return error.issues.map((issue) => ({
    path: [part, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
}
