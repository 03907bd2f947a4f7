// The child side of an adapter process. The console forks this file once per adapter with an
// IPC channel; it loads the adapter's entry module and answers the console's messages:
//   { type: 'init', entry, config, id }    -> { type: 'ready', methods } | exit 1 on failure
//   { type: 'call', id, method, args }     -> { type: 'result', id, ok, value | error }
//   { type: 'health', id }                 -> { type: 'health', id, pid, uptime, memoryUsage, cpuUsage, connection }
//   { type: 'stop' }                       -> the adapter's stop(), then exit 0
// (over child_process.fork's IPC channel, or an Electron utility process's parentPort)
// Plain CommonJS so it runs under any Node without a build step. The adapter module exports
// (or default-exports) `methods` and optionally `start(config, context)`, `stop()` and
// `connectionState()` (see adapters/example/README.md).
'use strict';
const { pathToFileURL } = require('node:url');

let adapter = null;
let adapterId = '?';

// Under child_process.fork the channel is process.send/'message'; in an Electron utility
// process it is process.parentPort (messages arrive as { data }).
const parentPort = process.parentPort;

function send(message) {
  if (parentPort) parentPort.postMessage(message);
  else if (process.connected) process.send(message);
}

function describe(error) {
  if (error instanceof Error) return error.message || error.name;
  return typeof error === 'string' ? error : JSON.stringify(error);
}

async function load(message) {
  adapterId = message.id;
  const imported = await import(pathToFileURL(message.entry).href);
  const candidate = imported.default && typeof imported.default === 'object' ? imported.default : imported;
  if (!candidate.methods || typeof candidate.methods !== 'object') {
    throw new Error(`adapter ${adapterId}: ${message.entry} exports no "methods" object`);
  }
  const context = { id: message.id, config: message.config || {}, log: (...args) => console.error(`[${adapterId}]`, ...args) };
  if (typeof candidate.start === 'function') await candidate.start(context.config, context);
  adapter = { module: candidate, context };
  const methods = Object.keys(candidate.methods).filter((name) => typeof candidate.methods[name] === 'function');
  send({ type: 'ready', methods });
}

async function connection() {
  const fn = adapter && adapter.module.connectionState;
  if (typeof fn !== 'function') return { state: 'ONLINE' };
  try {
    const answer = await fn.call(adapter.module, adapter.context);
    if (answer === true || answer === 'ONLINE') return { state: 'ONLINE' };
    if (answer === false || answer === 'OFFLINE') return { state: 'OFFLINE' };
    if (answer && (answer.state === 'ONLINE' || answer.state === 'OFFLINE')) {
      return answer.detail ? { state: answer.state, detail: String(answer.detail) } : { state: answer.state };
    }
    return { state: 'OFFLINE', detail: `connectionState() answered ${JSON.stringify(answer)}, expected "ONLINE" or "OFFLINE"` };
  } catch (error) {
    return { state: 'OFFLINE', detail: `connectionState() failed: ${describe(error)}` };
  }
}

async function onCall(message) {
  const fn = adapter && adapter.module.methods[message.method];
  if (typeof fn !== 'function') {
    send({ type: 'result', id: message.id, ok: false, error: `method "${message.method}" is not implemented by the adapter module` });
    return;
  }
  try {
    const value = await fn.call(adapter.module.methods, message.args || {}, adapter.context);
    send({ type: 'result', id: message.id, ok: true, value: value === undefined ? null : value });
  } catch (error) {
    send({ type: 'result', id: message.id, ok: false, error: describe(error) });
  }
}

async function onHealth(message) {
  const memory = process.memoryUsage();
  const cpu = process.cpuUsage();
  send({
    type: 'health',
    id: message.id,
    pid: process.pid,
    uptime: process.uptime(),
    memoryUsage: { rss: memory.rss, heapTotal: memory.heapTotal, heapUsed: memory.heapUsed, external: memory.external },
    cpuUsage: { user: cpu.user, system: cpu.system },
    connection: await connection(),
  });
}

async function onStop() {
  try {
    if (adapter && typeof adapter.module.stop === 'function') await adapter.module.stop(adapter.context);
  } catch (error) {
    console.error(`[${adapterId}] stop() failed: ${describe(error)}`);
  }
  process.exit(0);
}

function onMessage(message) {
  if (!message || typeof message !== 'object') return;
  if (message.type === 'init') {
    load(message).catch((error) => {
      console.error(`adapter ${adapterId} failed to start: ${error && error.stack ? error.stack : describe(error)}`);
      process.exit(1);
    });
  } else if (message.type === 'call') void onCall(message);
  else if (message.type === 'health') void onHealth(message);
  else if (message.type === 'stop') void onStop();
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
