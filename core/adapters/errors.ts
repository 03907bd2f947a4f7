// The errors of adapter calls: each names the adapter, the method and the cause, so a workflow
// task that fails on one says what to look at.
import { ConsoleError, type ErrorCode } from '../errors';

export type AdapterErrorCause = 'unknown-adapter' | 'not-running' | 'unknown-method' | 'timeout' | 'crash' | 'stopped' | 'failed';

/** What a cause means to a caller: an unknown adapter is not found; one that failed or is not running conflicts with the call. */
const CODE_OF_CAUSE: Record<AdapterErrorCause, ErrorCode> = {
  'unknown-adapter': 'not_found',
  'not-running': 'conflict',
  failed: 'conflict',
  'unknown-method': 'internal',
  timeout: 'internal',
  crash: 'internal',
  stopped: 'internal',
};

export class AdapterError extends ConsoleError {
  constructor(
    readonly kind: AdapterErrorCause,
    readonly adapter: string,
    readonly method: string | undefined,
    message: string,
  ) {
    super(CODE_OF_CAUSE[kind], message, { adapter });
    this.name = 'AdapterError';
  }
}

/** A conflict with what exists (a name taken), answered 409. */
export class ConflictError extends ConsoleError {
  constructor(message: string) {
    super('conflict', message);
  }
}
