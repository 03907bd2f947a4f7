// One IPC handler per operation of the contract, each checking its sender, each
// answering through the same dispatch as the HTTP routes.
import type { IpcMainInvokeEvent } from 'electron';
import { operationNames, type ErrorBody, type OperationName } from '../core/contract';
import { dispatch, errorBody, OpError, type Handlers, type RawInput } from '../core/dispatch/dispatch';

export const channelOf = (name: OperationName) => `op:${name}`;

export type IpcReply = { ok: true; data: unknown } | { ok: false; error: ErrorBody };

export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcMainInvokeEvent, input: RawInput) => Promise<IpcReply>): void;
}

export function registerOperations(
  ipcMain: IpcMainLike,
  handlers: () => Handlers,
  isTrusted: (event: IpcMainInvokeEvent) => boolean,
) {
  for (const name of operationNames) {
    ipcMain.handle(channelOf(name), async (event, input) => {
      try {
        if (!isTrusted(event)) throw new OpError(403, `operation ${name} refused: the caller is not the console window`);
        const data = await dispatch(handlers(), name, input ?? {}, {
          transport: 'ipc',
          caller: 'console window',
          setHeader: () => undefined,
          setStatus: () => undefined,
        });
        return { ok: true, data: data ?? null };
      } catch (error) {
        return { ok: false, error: errorBody(error) };
      }
    });
  }
}
