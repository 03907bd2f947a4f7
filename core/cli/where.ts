// The first lines the console prints when it starts: where it keeps its data and its log, and
// which port it listens on, so an operator knows before anything else happens.
import path from 'node:path';

export interface Whereabouts {
  dataDir: string;
  /** The port asked for; 0 is any free one, printed once listening. */
  port: number;
  bindAddress: string;
}

export function startupLines({ dataDir, port, bindAddress }: Whereabouts): string[] {
  return [
    `Data: ${dataDir} (profiles, the embedded store, the API token; --data-dir to choose another)`,
    `Logs: ${path.join(dataDir, 'logs')}${path.sep} (console.log unless the profile's loggerProps.log_filename names another)`,
    `Port: ${port === 0 ? 'any free one' : port} on ${bindAddress} (--port to choose another, 0 for any free one)`,
  ];
}
