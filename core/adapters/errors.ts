// The errors of adapter calls: each names the adapter, the method and the cause, so a workflow
// task that fails on one says what to look at.
export type AdapterErrorCause = 'unknown-adapter' | 'not-running' | 'unknown-method' | 'timeout' | 'crash' | 'stopped' | 'failed';

export class AdapterError extends Error {
  constructor(
    readonly kind: AdapterErrorCause,
    readonly adapter: string,
    readonly method: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'AdapterError';
  }
}
