// One IPC handler per operation of the contract, each checking its sender, each
// answering through the same dispatch as the HTTP routes.
import type { IpcMainInvokeEvent } from 'electron';
import { operationNames, type ErrorBody, type OperationName } from '../core/contract';
import { dispatch, errorBody, type Handlers, type RawInput } from '../core/dispatch/dispatch';
import { ConsoleError } from '../core/errors';
import type { Logger } from '../core/logging/logger';

export const channelOf = (name: OperationName) => `op:${name}`;

export type IpcReply = { ok: true; data: unknown } | { ok: false; error: ErrorBody };

export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcMainInvokeEvent, input: RawInput) => Promise<IpcReply>): void;
}

export function registerOperations(
  ipcMain: IpcMainLike,
  handlers: () => Handlers,
  logger: Logger,
  isTrusted: (event: IpcMainInvokeEvent) => boolean,
) {
  const log = logger.child({ component: 'ipc' });
  for (const name of operationNames) {
    ipcMain.handle(channelOf(name), async (event, input) => {
      const started = performance.now();
      try {
        if (!isTrusted(event)) throw new ConsoleError('forbidden', `operation ${name} refused: the caller is not the console window`);
        const data = await dispatch(handlers(), name, input ?? {}, {
          transport: 'ipc',
          caller: 'console window',
          setHeader: () => undefined,
          setStatus: () => undefined,
        });
        // The window polls; its calls are logged at debug (HTTP requests are logged at info).
        log.debug({ operation: name, ms: Math.round(performance.now() - started) }, 'ipc call');
        return { ok: true, data: data ?? null };
      } catch (error) {
        const body = errorBody(error);
        if (body.statusCode >= 500) log.error({ operation: name, err: error }, `${name} failed: ${body.message}`);
        else if (body.statusCode === 403) log.warn({ operation: name, sender: event.senderFrame?.url }, body.message);
        return { ok: false, error: body };
      }
    });
  }
}
