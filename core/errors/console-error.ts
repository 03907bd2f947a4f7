// The one base of the errors a caller is told about. Its `code` (see codes.ts) decides the
// HTTP status and IPC answer; `details` are extra fields of the answer's body (`issues`,
// `problems`, the adapter or step concerned). Subclasses name what went wrong in their own
// terms (a store's `reason`, a transformation's step) but answer through this code.
import { type ErrorCode, type ErrorStatus, statusOf } from './codes';

export type ErrorDetails = Record<string, unknown>;

export class ConsoleError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** The message a caller is answered with (a subclass may mask or explain its own). */
  answerMessage(): string {
    return this.message;
  }

  /** The HTTP status this error answers with. */
  get statusCode(): ErrorStatus {
    return statusOf(this.code);
  }
}

export const isConsoleError = (error: unknown): error is ConsoleError => error instanceof ConsoleError;
