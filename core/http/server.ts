// The public REST API, built from the contract: one route per operation, all behind
// the console's token (in one of the service's login forms, logins/), plus the built UI served at
// `/` when there is one.
import { existsSync } from 'node:fs';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { contract, operationNames, type Operation, type OperationName } from '../contract';
import { dispatch, errorBody, type CallContext, type Handlers } from '../dispatch/dispatch';
import { ConsoleError, codeOfStatus, errorMessage, isServerFault, statusOf, type ErrorCode } from '../errors';
import { pino } from 'pino';
import type { Logger } from '../logging/logger';
import { checkJsonText, MAX_BODY_BYTES, MAX_DEPTH } from '../dispatch/limits';
import { hostChecker } from './hosts';
import { HEAVY_BODY_CHARS, heavyBodyTurns } from './heavy-bodies';
import { Logins } from './logins/credentials';
import { LOGIN_ROUTES, proofOf, registerLoginRoutes } from './logins/routes';

export interface HttpServerOptions {
  handlers: Handlers;
  token: string;
  /** Folder of the built renderer; the UI is not served when absent. */
  uiDir?: string;
  /** Every request is logged here (one entry when answered), and every failure with its cause; the host passes its logger. */
  logger?: Logger;
  /** Host values served besides the loopback names (`name` or `name:port`), when bound elsewhere. */
  allowedHosts?: string[];
  /** The sessions and access tokens of the service's logins; made from `token` unless given (a test that rotates the token holds it). */
  logins?: Logins;
}

/** Content Security Policy of the UI: only our own scripts, no inline script, no framing. */
export const UI_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

/** A body that could not be read; an error only for operations that take a body. */
class UnreadableBody {
  constructor(
    readonly message: string,
    readonly code: ErrorCode,
  ) {}
}

/** The route fastify-static registers for the UI's files. */
const UI_ROUTE = '/*';
/** What a browser asks for by itself, served by the UI's files when there are some (a 401 otherwise). */
const BROWSER_FILES: ReadonlySet<string> = new Set(['/favicon.ico', '/robots.txt', '/apple-touch-icon.png']);

/** A request for one of the UI's own files (its page, its `/assets/…`, the icon the browser asks for). */
function isUiFile(request: FastifyRequest, url = ''): boolean {
  return request.routeOptions.url === UI_ROUTE || url === '/' || url.startsWith('/assets/') || BROWSER_FILES.has(url);
}

const missingToken = () =>
  new ConsoleError(
    'unauthorized',
    'missing or wrong token: send "Authorization: Bearer <token>" or "?token=<token>", or log in (POST /login, POST /oauth/token); the token is printed when the console starts',
  );

/** The answer to a call without the token (its status from core/errors' table). */
function refuseWithoutToken(reply: FastifyReply) {
  const body = errorBody(missingToken());
  return reply.status(body.statusCode).type('application/json').send(body);
}

/** What the console's own UI sends as `X-Caller` (renderer/api/client.ts), instead of a browser's full user agent. */
export const UI_CALLER = 'console UI';

function callerOf(request: FastifyRequest): string {
  const agent = request.headers['x-caller'] ?? request.headers['user-agent'] ?? 'unknown client';
  return `${String(agent)} (${request.ip})`;
}

export async function buildHttpServer(options: HttpServerOptions): Promise<FastifyInstance> {
  const logins = options.logins ?? new Logins(options.token);
  const hasToken = (request: FastifyRequest) => proofOf(request, logins) !== undefined;
  const log = (options.logger ?? pino({ level: 'silent' })).child({ component: 'http' });
  // Fastify's own per-request lines are replaced by one entry per answered request (onResponse).
  const app = Fastify({
    // The cast picks Fastify's logger type for the instance (tsc infers pino's otherwise), which the rule cannot see.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
    loggerInstance: log as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: MAX_BODY_BYTES,
    // Ids longer than any the contract accepts still reach it, so the answer names the parameter; a 200-character
    // name percent-encoded (up to 12 bytes a character) fits.
    routerOptions: { maxParamLength: 4096 },
  });

  app.addHook('onResponse', async (request, reply) => {
    const entry = {
      reqId: request.id,
      method: request.method,
      url: request.url.split('?')[0],
      statusCode: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      caller: callerOf(request),
    };
    // The console's own UI polls (the Logs page every second, the status bar every 5 s) and loads its files
    // (`/`, `/assets/…`, `/favicon.ico`): at info those would bury what the log is for, so its reads, its
    // files (served to anyone, with or without the token), and GET /logs from anyone, are at debug.
    const quiet = request.method === 'GET' && (entry.url === '/logs' || request.headers['x-caller'] === UI_CALLER || isUiFile(request, entry.url));
    // 503: something the console depends on is down, said once where it is found (the store's own log).
    if (reply.statusCode === statusOf('unavailable')) log.warn(entry, 'request failed: service unavailable');
    else if (isServerFault(reply.statusCode)) log.error(entry, 'request failed');
    else if (quiet) log.debug(entry, 'request');
    else log.info(entry, 'request');
  });

  // Bodies are parsed leniently here and judged per operation in the route: an operation
  // that takes no body ignores whatever was sent (POST /indexes/:name is often sent with
  // `-d ''` or an empty JSON body); one that takes a body gets a 400 or 415 naming the problem.
  app.removeAllContentTypeParsers();
  // An operation's own bound on a body's values (a job start's), by route.
  const valueLimits = new Map(
    operationNames.map((name) => {
      const operation: Operation = contract[name];
      return [`${operation.method} ${operation.path}`, operation.maxValues];
    }),
  );
  const turns = heavyBodyTurns(app);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, text, done) => {
    const source = String(text);
    if (source.trim() === '') return done(null, undefined);
    const read = () => {
      // Depth and size are judged on the text, in one pass, before the parser builds anything.
      const most = valueLimits.get(`${req.method} ${req.routeOptions.url ?? ''}`);
      const breach = checkJsonText(source, MAX_DEPTH, most?.values, most?.what);
      if (breach) return done(null, new UnreadableBody(breach.message, breach.code));
      try {
        done(null, JSON.parse(source));
      } catch (error) {
        done(null, new UnreadableBody(`body: not valid JSON (${errorMessage(error)})`, 'bad_input'));
      }
    };
    if (source.length < HEAVY_BODY_CHARS) return read();
    // A large body waits for its turn (core/http/heavy-bodies.ts).
    void turns.take(req).then(read);
  });
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (req, buffer, done) => {
    const length = (buffer as Buffer).length;
    const type = req.headers['content-type'] ?? 'none';
    done(null, length === 0 ? undefined : new UnreadableBody(`body: send JSON with "Content-Type: application/json" (got ${type})`, 'unsupported_media'));
  });

  // Before anything else, the UI included: a request under another name is not ours to answer.
  const listeningPort = () => {
    const address = app.server.address();
    return typeof address === 'object' && address ? address.port : undefined;
  };
  const servedHost = hostChecker(listeningPort, options.allowedHosts);
  app.addHook('onRequest', async (request, reply) => {
    if (servedHost(request.headers.host)) return;
    const body = errorBody(
      new ConsoleError('misdirected', `Host "${request.headers.host ?? ''}" is not served: use http://127.0.0.1:${listeningPort()} (or start the console with --allowed-host NAME)`),
    );
    return reply.status(body.statusCode).type('application/json').send(body);
  });

  // The token, before the body is read: a caller without it costs no parsing. Only the UI's own
  // files and the logins (which check their own credentials) are served without it; any other
  // path, a route or not, answers 401.
  app.addHook('onRequest', async (request, reply) => {
    const route = request.routeOptions.url;
    if (route === UI_ROUTE || LOGIN_ROUTES.has(`${request.method} ${route}`) || hasToken(request)) return;
    return refuseWithoutToken(reply);
  });

  app.setErrorHandler((error, request, reply) => {
    const body = errorBody(asConsoleError(error, request.routeOptions.bodyLimit ?? MAX_BODY_BYTES));
    // A server-side failure (a store that does not answer, a bug) is logged with its cause and stack.
    // A store that takes no writes or cannot be read logs its cause itself, once per cause and minute: no stack per request.
    const storeDown = error instanceof ConsoleError && error.name === 'StoreError' && error.code === 'unavailable';
    if (isServerFault(body.statusCode) && !storeDown) log.error({ reqId: request.id, url: request.url.split('?')[0], err: error }, `${request.method} failed: ${body.message}`);
    reply.status(body.statusCode).type('application/json').send(body);
  });

  app.setNotFoundHandler((request, reply) => {
    // A path the UI's files do not hold is no more public than a route.
    if (!hasToken(request)) return refuseWithoutToken(reply);
    const body = errorBody(new ConsoleError('not_found', `no route ${request.method} ${request.url.split('?')[0]}`));
    reply.status(body.statusCode).send(body);
  });

  registerLoginRoutes(app, logins, readBody);
  for (const name of operationNames) registerOperation(app, name, options);

  if (options.uiDir && existsSync(options.uiDir)) {
    await app.register(fastifyStatic, {
      root: options.uiDir,
      prefix: '/',
      index: 'index.html',
      // Files are looked up per request, so a UI rebuilt while the console runs is served as is.
      wildcard: true,
      setHeaders: (res) => {
        // setHeader answers the reply (a thenable) for chaining: nothing to wait for.
        void res.setHeader('Content-Security-Policy', UI_CSP);
      },
    });
  }
  return app;
}

/** What Fastify itself refused (a body too large, a malformed request) as the console's error; others pass as they are. */
function asConsoleError(error: unknown, bodyLimit: number): unknown {
  if (error instanceof ConsoleError || !(error instanceof Error)) return error;
  if ('code' in error && error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    const most = bodyLimit >= 1024 * 1024 ? `${bodyLimit / 1024 / 1024} MB` : `${bodyLimit / 1024} KB`;
    return new ConsoleError('too_large', `body: larger than ${most}, the most one request ${bodyLimit === MAX_BODY_BYTES ? 'may' : 'to this route may'} carry`);
  }
  const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : undefined;
  return status && !isServerFault(status) ? new ConsoleError(codeOfStatus(status), error.message) : error;
}

/** A body as a route that takes one reads it: one that could not be read is its 400, 413 or 415. */
function readBody(body: unknown): unknown {
  if (body instanceof UnreadableBody) throw new ConsoleError(body.code, body.message, { issues: [{ path: 'body', message: body.message.replace(/^body: /, '') }] });
  return body;
}

/** The query without `?token=`: a login form, not an input of the operation (nor anything its handler may see). */
function withoutToken(query: unknown): unknown {
  if (typeof query !== 'object' || query === null || !('token' in query)) return query;
  const { token: _token, ...rest } = query as Record<string, unknown>;
  return rest;
}

function registerOperation(app: FastifyInstance, name: OperationName, options: HttpServerOptions) {
  const operation: Operation = contract[name];
  app.route({
    method: operation.method,
    url: operation.path,
    handler: async (request, reply) => {
      const ctx: CallContext = {
        transport: 'http',
        caller: callerOf(request),
        setHeader: (header, value) => void reply.header(header, value),
        setStatus: (code) => void reply.status(code),
      };
      const body = operation.body ? readBody(request.body) : request.body instanceof UnreadableBody ? undefined : request.body;
      const result = await dispatch(
        options.handlers,
        name,
        { params: request.params, query: withoutToken(request.query), body },
        ctx,
      );
      return result ?? null;
    },
  });
}
