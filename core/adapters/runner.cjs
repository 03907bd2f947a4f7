// The child side of an adapter instance. The console starts this file once per service config
// (child_process.fork with an IPC channel, or an Electron utility process) and hosts the adapter
// as the service does: a global `log`, `new Export(id, properties)`, `connect()`, the ONLINE /
// OFFLINE / DEGRADED / FIXED events, `healthCheck(reqObj, callback)` on the schedule of
// `properties.healthcheck` (`startup`: once, `intermittent`: every `frequency` ms, `none`: never),
// and methods called with their inputs in order plus a last `callback(result, error)`.
//   { type: 'init', id, packageDir, src, exportName, properties } -> { type: 'ready', methods }
//                                                                 | { type: 'load-failed', message } and exit 1
//   { type: 'call', id, method, args, undefinedAt }                -> { type: 'result', id, ok, value | error }
//   { type: 'health', id }                                         -> { type: 'health', id, pid, uptime, memoryUsage, cpuUsage }
//   { type: 'stop' }                                               -> exit 0
// and, unasked: { type: 'event', event }, { type: 'healthcheck', ok, detail }, { type: 'log', level, message }.
// Plain CommonJS so it runs under any Node without a build step.
'use strict';
const { createRequire } = require('node:module');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const util = require('node:util');

const parentPort = process.parentPort;
function send(message, done) {
  if (parentPort) {
    parentPort.postMessage(message);
    if (done) setTimeout(done, 50);
  } else if (process.connected) process.send(message, done ? () => done() : undefined);
  else if (done) done();
}

// The service's adapter logger: error, warn, info, debug, trace, spam; lines go to the console's log.
const LEVELS = ['error', 'warn', 'info', 'debug', 'trace', 'spam'];
global.log = Object.fromEntries(
  LEVELS.map((level) => [level, (...args) => send({ type: 'log', level, message: args.map((a) => (typeof a === 'string' ? a : util.inspect(a, { depth: 4 }))).join(' ') })]),
);

let instance = null;
let adapterId = '?';
let healthTimer = null;

/** A line on this process's stderr: the console keeps the last ones and says them when the adapter exits (child.ts). */
function stderrLine(text) {
  process.stderr.write(`${text}\n`);
}

function describe(error) {
  if (error instanceof Error) return error.message || error.name;
  return typeof error === 'string' ? error : JSON.stringify(error);
}

/** An adapter error as JSON: its own object (IAPerror and all) when it is one, else a message. */
function asJson(value) {
  if (value === undefined) return null;
  if (value instanceof Error) return { message: value.message, name: value.name };
  try {
    return JSON.parse(JSON.stringify(value));
  } catch (error) {
    return { message: `unserialisable answer: ${describe(error)}` };
  }
}

function methodNames(object) {
  const names = new Set();
  for (let o = object; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const name of Object.getOwnPropertyNames(o)) if (name !== 'constructor' && typeof object[name] === 'function') names.add(name);
  }
  return [...names];
}

async function loadClass(message) {
  let mod;
  try {
    mod = createRequire(message.src)(message.src);
  } catch (error) {
    if (error.code !== 'ERR_REQUIRE_ESM' && error.code !== 'ERR_REQUIRE_ASYNC_MODULE') throw error;
    mod = await import(pathToFileURL(message.src).href);
  }
  const candidates = [mod && mod[message.exportName], mod && mod.default && mod.default[message.exportName], mod && mod.default, mod];
  const Export = candidates.find((c) => typeof c === 'function');
  if (!Export) throw new Error(`${message.src} exports no class "${message.exportName}" (pronghorn.json "export")`);
  return Export;
}

/** Why the package's module cannot be loaded, in words an operator can act on. */
function loadFailure(error, message) {
  const text = describe(error);
  if (error && (error.code === 'MODULE_NOT_FOUND' || error.code === 'ERR_MODULE_NOT_FOUND')) {
    const found = /Cannot find (?:module|package) '([^']+)'/.exec(text);
    const missing = found ? found[1] : undefined;
    if (missing && (missing === message.src || path.resolve(missing) === message.src)) {
      return `its module ${message.src} (pronghorn.json "src" or package.json "main") is missing`;
    }
    if (missing && !missing.startsWith('.') && !path.isAbsolute(missing) && !missing.startsWith('file:')) {
      return `its dependencies are not installed (cannot find module '${missing}'): run \`npm install\` in ${message.packageDir}`;
    }
    return `a file it needs is missing (cannot find module '${missing || '?'}')`;
  }
  return text.split('\n')[0];
}

function runHealthCheck() {
  if (!instance || typeof instance.healthCheck !== 'function') return;
  try {
    instance.healthCheck(null, (result, error) => {
      const ok = !error && result !== false;
      send({ type: 'healthcheck', ok, detail: error ? describe(error.IAPerror ? error.IAPerror.displayString : error) : undefined });
    });
  } catch (error) {
    send({ type: 'healthcheck', ok: false, detail: `healthCheck threw: ${describe(error)}` });
  }
}

async function init(message) {
  adapterId = message.id;
  const properties = message.properties || {};
  if (properties.stub === true) {
    const { StubAdapter } = require('./stub.cjs');
    instance = new StubAdapter(message.id, properties, message.packageDir);
  } else {
    let Export;
    try {
      Export = await loadClass(message);
    } catch (error) {
      // Loading again will not help until the package changes: say why, and end.
      const why = `adapter "${message.id}" cannot load its package: ${loadFailure(error, message)}`;
      stderrLine(error && error.stack ? error.stack : describe(error));
      stderrLine(why);
      send({ type: 'load-failed', message: why }, () => process.exit(1));
      return;
    }
    instance = new Export(message.id, properties);
  }
  for (const event of ['ONLINE', 'OFFLINE', 'DEGRADED', 'FIXED']) {
    if (typeof instance.on === 'function') instance.on(event, () => send({ type: 'event', event }));
  }
  send({ type: 'ready', methods: methodNames(instance) });
  if (typeof instance.connect === 'function') instance.connect();
  const check = properties.healthcheck || {};
  if (properties.stub !== true && (check.type === 'startup' || check.type === 'intermittent')) runHealthCheck();
  if (check.type === 'intermittent') {
    const every = Number(check.frequency) > 0 ? Number(check.frequency) : 300000;
    healthTimer = setInterval(runHealthCheck, Math.max(1000, every));
  }
}

function onCall(message) {
  const args = Array.isArray(message.args) ? message.args.slice() : [];
  for (const i of message.undefinedAt || []) args[i] = undefined;
  let answered = false;
  const callback = (result, error) => {
    if (answered) return;
    answered = true;
    if (error !== undefined && error !== null) send({ type: 'result', id: message.id, ok: false, error: asJson(error) });
    else send({ type: 'result', id: message.id, ok: true, value: asJson(result) });
  };
  try {
    if (instance instanceof require('./stub.cjs').StubAdapter) return instance.call(message.method, args, callback);
    const fn = instance && instance[message.method];
    if (typeof fn !== 'function') return callback(null, { message: `method "${message.method}" is not implemented by the adapter class` });
    const returned = fn.apply(instance, [...args, callback]);
    // Some adapters answer with a promise instead of the callback.
    if (returned && typeof returned.then === 'function') returned.then((value) => callback(value, null), (error) => callback(null, error));
  } catch (error) {
    callback(null, { message: `${message.method} threw: ${describe(error)}` });
  }
}

function onHealth(message) {
  const memory = process.memoryUsage();
  const cpu = process.cpuUsage();
  send({
    type: 'health',
    id: message.id,
    pid: process.pid,
    uptime: process.uptime(),
    memoryUsage: { rss: memory.rss, heapTotal: memory.heapTotal, heapUsed: memory.heapUsed, external: memory.external, arrayBuffers: memory.arrayBuffers },
    cpuUsage: { user: cpu.user, system: cpu.system },
  });
}

function onMessage(message) {
  if (!message || typeof message !== 'object') return;
  if (message.type === 'init') {
    init(message).catch((error) => {
      stderrLine(`adapter ${adapterId} failed to start: ${error && error.stack ? error.stack : describe(error)}`);
      process.exit(1);
    });
  } else if (message.type === 'call') onCall(message);
  else if (message.type === 'health') onHealth(message);
  else if (message.type === 'stop') {
    clearInterval(healthTimer);
    process.exit(0);
  }
}

if (parentPort) parentPort.on('message', (event) => onMessage(event.data));
else {
  process.on('message', onMessage);
  // The console is gone: do not linger as an orphan.
  process.on('disconnect', () => process.exit(0));
}

// A console killed outright (kill -9) may leave no 'disconnect' to hear (a utility process, an
// adapter busy at that moment): a child whose parent changed is an orphan, and ends.
const consolePid = process.ppid;
setInterval(() => {
  if (process.ppid !== consolePid) process.exit(0);
}, 500).unref();
