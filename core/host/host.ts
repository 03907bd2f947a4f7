// The composition root of the core for one data directory: builds the host's services and
// the active profile's runtime, hands each capability its services, follows profile changes,
// and serves the handlers over HTTP. Electron main and the headless `serve` command both
// start the console through `startHost`, passing their configuration as options.
import type { FastifyInstance } from 'fastify';
import { buildHttpServer } from '../http/server';
import { defaultAllowedHosts } from '../http/hosts';
import { ensureActiveProfile } from '../profiles/directory';
import { noProfileConfig, runtimeConfig } from '../profiles/runtime-config';
import type { Handlers } from '../dispatch/dispatch';
import { consoleToken, serverId } from './data-dir';
import { buildHandlers } from './handlers';
import type { HostState } from './state';
import { closeRuntime, openRuntime } from './runtime';
import { lockDataDir } from './lock';
import { followProfileChanges } from './profile-switch';
import { DeprecatedCallLog } from '../health/lifecycle';
import { ProfileEvents } from '../profiles/events';
import type { AdapterLauncher } from '../adapters';
import { createLogService, type LogService } from '../logging/logger';
import { createVault, type SecretProvider } from '../secrets/secrets';
import { runtimeProblem } from '../store/open';
import { StoreLifecycle } from '../store/lifecycle';

export interface HostOptions {
  dataDir: string;
  /** 0 = any free port. */
  port?: number;
  /** 127.0.0.1 unless given. */
  bindAddress?: string;
  token?: string;
  uiDir?: string;
  /** Host header values served besides the loopback names; by default the bind address when it is not loopback. */
  allowedHosts?: string[];
  /** Where the adapter runner and shipped adapters are; found from the code's location unless given. */
  productDir?: string;
  /** How adapter processes start (the desktop app: Electron utility processes); forked Node unless given. */
  adapterLauncher?: AdapterLauncher;
  /** Log entries also go to the terminal (stderr) at loggerProps.console_level; off unless asked. */
  logToConsole?: boolean;
  /** Seals new secrets (the desktop app: the OS keychain through safeStorage); the data directory's key file unless given. */
  secretProvider?: SecretProvider;
}

export interface Host {
  readonly state: HostState;
  readonly handlers: Handlers;
  readonly log: LogService;
  readonly token: string;
  /** Base URL of the HTTP API, e.g. http://127.0.0.1:4100 */
  readonly url: string;
  close(): Promise<void>;
}

export async function startHost(options: HostOptions): Promise<Host> {
  // Before anything is written: a runtime without node:sqlite would start and then fail every store call.
  const problem = runtimeProblem();
  if (problem) throw new Error(problem);
  // One console per data directory: a second one is refused, naming the first.
  const lock = await lockDataDir(options.dataDir);
  try {
    return await startLocked(options, lock);
  } catch (error) {
    await lock.release();
    throw error;
  }
}

async function startLocked(options: HostOptions, lock: { release(): Promise<void> }): Promise<Host> {
  const token = await consoleToken(options.dataDir, options.token);
  const log = createLogService({ dataDir: options.dataDir, console: options.logToConsole });
  const starting = await ensureActiveProfile(options.dataDir);
  // console.json that cannot be read activates no other profile: the console runs with none and says why.
  const config = starting.problem ? noProfileConfig(options.dataDir, starting.problem.message) : runtimeConfig(starting.profile, options.dataDir);
  log.configure(config.logging);
  if (starting.problem) log.logger.error({ component: 'profiles' }, starting.problem.message);
  const context = {
    dataDir: options.dataDir,
    serverId: await serverId(options.dataDir),
    productDir: options.productDir,
    adapterLauncher: options.adapterLauncher,
    vault: createVault(options.dataDir, options.secretProvider),
    logger: log.logger,
    loggerLevels: log.levels,
  };
  const state: HostState = {
    ...context,
    runtime: await openRuntime(context, config),
    lifecycle: new StoreLifecycle(),
    callLog: new DeprecatedCallLog(),
    profileEvents: new ProfileEvents(),
    log,
  };
  const stopFollowing = followProfileChanges(state);
  const handlers = buildHandlers(state);
  const bindAddress = options.bindAddress ?? '127.0.0.1';
  const allowedHosts = defaultAllowedHosts(bindAddress, options.allowedHosts);
  const http: FastifyInstance = await buildHttpServer({ handlers, token, uiDir: options.uiDir, allowedHosts, logger: log.logger });
  await http.listen({ port: options.port ?? 0, host: bindAddress });
  const address = http.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const shownHost = bindAddress.includes(':') ? `[${bindAddress}]` : bindAddress;
  state.api = { url: `http://${shownHost}:${port}`, token };
  log.logger.info({ url: `http://${shownHost}:${port}`, dataDir: options.dataDir, profile: config.profileId ?? null, serverId: context.serverId }, 'console started');
  let closed = false;
  return {
    state,
    handlers,
    log,
    token,
    url: `http://${shownHost}:${port}`,
    async close() {
      if (closed) return;
      closed = true;
      stopFollowing();
      state.schedules?.stop();
      await http.close();
      // After a restore or profile switch that runs: closing never races them to the runtime.
      await state.lifecycle.queue('closing the console', () => closeRuntime(state.runtime));
      log.logger.info('console stopped');
      log.close();
      await lock.release();
    },
  };
}
