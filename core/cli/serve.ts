// Headless console: `npm run serve -- --data-dir DIR --port N [--host ADDR]`.
// Serves the built UI at / and the API beside it, for a browser or a DR site without a desktop.
import { parseArgs } from 'node:util';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHost, type Host } from '../host/host';
import { defaultDataDir } from '../host/data-dir';
import { startupLines } from './where';
import { listenProblem, newPaths, removeNew } from './listen';

export const UI_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/renderer');

const USAGE = 'usage: npm run serve -- [--data-dir DIR] [--port N] [--host 127.0.0.1] [--allowed-host NAME[:PORT]]... [--print-token | --no-print-token]';

const HELP = `${USAGE}

Serves the console (the built UI and its API) to a browser, headless: for a DR site with no desktop.

  --data-dir DIR         profiles, the embedded store, the API token and the log
                         (default ${defaultDataDir()})
  --port N               the port to listen on, 4100 by default; 0 for any free one
  --host ADDR            the address to listen on, 127.0.0.1 by default
  --allowed-host NAME[:PORT]
                         another Host name the API answers to (repeat, or comma-separated)
  --print-token          print the URL with the API token even when stdout is not a terminal
  --no-print-token       never print the token (it is in DIR/console-token)
  -h, --help             this help

The token is CONSOLE_TOKEN when set. More: docs/running-and-testing.md.`;

function usage(message: string): never {
  console.error(`serve: ${message}\n${USAGE}`);
  process.exit(2);
}

export async function serve(argv: string[]) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        'data-dir': { type: 'string' },
        port: { type: 'string', default: '4100' },
        host: { type: 'string', default: '127.0.0.1' },
        'allowed-host': { type: 'string', multiple: true },
        'print-token': { type: 'boolean' },
        'no-print-token': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    usage(error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    console.log(HELP);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) usage(`--port must be a number from 0 to 65535, got "${values.port}"`);
  const dataDir = path.resolve(values['data-dir'] ?? defaultDataDir());
  const busy = (code: string) =>
    code === 'EADDRINUSE'
      ? `port ${port} on ${values.host} is already in use: pass another --port, or --port 0 for any free port`
      : `cannot listen on ${values.host} port ${port} (${code}): pass another --host or --port`;
  // Nothing is written (data directory, token, profile) before the port is known to be free.
  const problem = await listenProblem(port, values.host);
  if (problem) usage(busy(problem));
  const created = newPaths(dataDir);
  // Before the port opens: a SIGTERM in the moment after it would otherwise end the process before
  // its handlers exist (the data directory's lock left behind, no graceful stop). One received while
  // starting stops the console as soon as it has started.
  let started: Host | undefined;
  let stopping: string | undefined;
  let closing = false;
  const stop = async (signal: string) => {
    stopping ??= signal;
    if (!started || closing) return;
    closing = true;
    console.log(`Stopping (${stopping})`);
    await started.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  for (const line of startupLines({ dataDir, port, bindAddress: values.host })) console.log(line);

  const host = await startHost({
    dataDir,
    port,
    bindAddress: values.host,
    allowedHosts: values['allowed-host']?.flatMap((entry) => entry.split(',')),
    token: process.env.CONSOLE_TOKEN || undefined,
    uiDir: UI_DIR,
    logToConsole: true,
  }).catch(async (error: NodeJS.ErrnoException) => {
    // Taken in the moment since the check: what this start created goes again.
    if (error.code === 'EADDRINUSE' || error.code === 'EACCES' || error.code === 'EADDRNOTAVAIL') {
      await removeNew(created);
      usage(busy(error.code));
    }
    throw error;
  });
  started = host;
  if (stopping) return stop(stopping);
  console.log(`Console listening on ${host.url}`);
  console.log(`Log file: ${host.log.settings().file}`);
  // The token opens the console to whoever reads it: printed to a terminal, not into a log file
  // (stdout redirected) unless asked with --print-token.
  if (printToken(values, process.stdout.isTTY === true)) console.log(`Open ${host.url}/#token=${host.token}`);
  else console.log(`Open ${host.url}/ with the token of ${path.join(dataDir, 'console-token')} (or CONSOLE_TOKEN); --print-token prints the URL with it`);
  const profileId = host.state.runtime.config.profileId;
  console.log(`Data directory: ${dataDir} (${profileId === undefined ? 'no profile is active' : `profile "${profileId}"`})`);
  await printProfileWarnings(host);

}

/** Whether to print the URL with the token: asked, refused, or when stdout is a terminal. */
function printToken(flags: { 'print-token'?: boolean; 'no-print-token'?: boolean }, isTerminal: boolean): boolean {
  if (flags['no-print-token']) return false;
  if (flags['print-token']) return true;
  return isTerminal;
}

/** Warnings of the active profile (a legacy `activate` among them) go to the log too, not only to the UI. */
async function printProfileWarnings(host: Host) {
  const id = host.state.runtime.config.profileId;
  if (id === undefined) {
    const store = host.state.runtime.config.store;
    console.warn(`Warning: ${store.kind === 'none' ? store.reason : 'no profile is active'}`);
    return;
  }
  const ctx = { transport: 'http' as const, caller: 'serve', setHeader: () => undefined, setStatus: () => undefined };
  try {
    const entry = await host.handlers['profiles.get']({ params: { id }, query: undefined, body: undefined }, ctx);
    for (const warning of entry.metadata.warnings) console.warn(`Warning (profile "${id}"): ${warning}`);
  } catch (error) {
    console.warn(`Warning: cannot read profile "${id}": ${error instanceof Error ? error.message : String(error)}`);
  }
}

serve(process.argv.slice(2)).catch((error: Error) => {
  console.error(`serve: ${error.message}`);
  process.exit(1);
});
