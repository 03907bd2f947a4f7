// The log operation: the recent entries of the host's log, filtered.
import type { Handler } from '../dispatch/dispatch';
import type { LogService } from './logger';

export interface LogsDeps {
  log: Pick<LogService, 'ring' | 'settings'>;
}

export type LogsService = LogsDeps;

export function createLogsService(deps: LogsDeps): LogsService {
  return deps;
}

export function logsHandlers(service: LogsService): { 'logs.list': Handler<'logs.list'> } {
  return {
    'logs.list': ({ query }) => ({ ...service.log.ring.query(query), file: service.log.settings().file }),
  };
}
