// Stub mode: an adapter whose `properties.stub` is true answers from its package's own mock data
// and never reaches a live system. The console answers in the adapter's place, without loading
// the package's code, so a package whose dependencies are not installed runs in stub mode too.
// As the service's adapter libraries do: a method is the action of the same name in one of
// `entities/<entity>/action.json`; its `responseObjects` name a mock file per response (`key`
// matched against the call's inputs, else the `default` one); no mock file is an AD.500 error.
'use strict';
const EventEmitter = require('node:events');
const fs = require('node:fs');
const path = require('node:path');

function readActions(packageDir) {
  const actions = new Map();
  const root = path.join(packageDir, 'entities');
  let entities = [];
  try {
    entities = fs.readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  for (const entity of entities) {
    const file = path.join(root, entity, 'action.json');
    let json;
    try {
      json = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (error) {
      if (error.code === 'ENOENT') continue;
      log.warn(`stub: ${file} cannot be read: ${error.message}`);
      continue;
    }
    for (const action of Array.isArray(json.actions) ? json.actions : []) {
      if (action && typeof action.name === 'string' && !actions.has(action.name)) actions.set(action.name, { entity, dir: path.join(root, entity), action });
    }
  }
  return actions;
}

function errorObject(id, origin, displayString, recommendation, code, raw) {
  return { icode: 'AD.500', IAPerror: { origin: `${id}-${origin}`, displayString, recommendation, code, raw_response: raw } };
}

class StubAdapter extends EventEmitter {
  constructor(id, properties, packageDir) {
    super();
    this.id = id;
    this.properties = properties || {};
    this.packageDir = packageDir;
    this.actions = readActions(packageDir);
  }

  connect() {
    this.emit('OFFLINE', { id: this.id });
    this.healthCheck(null, () => undefined);
  }

  /** Healthy when the package's healthcheck action answers from mock data (or there is none to ask). */
  healthCheck(reqObj, callback) {
    const found = this.actions.get('healthcheck');
    const answer = found ? this.answer('healthcheck', []) : { result: { status: 'success', code: 200, response: {} } };
    if (answer.error) {
      this.emit('OFFLINE', { id: this.id });
      return callback(false, answer.error);
    }
    this.emit('ONLINE', { id: this.id });
    return callback(true);
  }

  /** The mock answer of an action for these inputs: `{ result }` or `{ error }` (adapter error object). */
  answer(method, args) {
    const found = this.actions.get(method);
    const origin = 'connectorRest-handleEndResponse';
    const noMock = (message) =>
      ({ error: errorObject(this.id, origin, 'Error 400 received on request', 'Verify the request is accurate via debug logs and postman', 400, { status: 'failure', code: 400, message }) });
    if (!found) return noMock(`no mock data for ${method}: no entity action of that name`);
    const responses = Array.isArray(found.action.responseObjects) ? found.action.responseObjects : [];
    const text = JSON.stringify(args.filter((a) => a !== undefined));
    const chosen =
      responses.find((r) => r && typeof r.key === 'string' && r.key !== '' && r.mockFile && text.includes(r.key)) ||
      responses.find((r) => r && r.type === 'default' && r.mockFile) ||
      responses.find((r) => r && (!r.key || r.key === '') && r.mockFile);
    if (!chosen) return noMock(`no mock data for ${found.entity}/${method}`);
    const file = path.resolve(found.dir, chosen.mockFile);
    if (!file.startsWith(this.packageDir + path.sep)) return noMock(`no mock data for ${found.entity}/${method}: ${chosen.mockFile} is outside the package`);
    let body;
    try {
      body = fs.readFileSync(file, 'utf8');
    } catch (error) {
      return noMock(`no mock data for ${found.entity}/${method}: ${chosen.mockFile}: ${error.code || error.message}`);
    }
    let response = body;
    if (/json/i.test(found.action.responseDatatype || 'JSON') || file.endsWith('.json')) {
      try {
        response = JSON.parse(body);
      } catch (error) {
        log.warn(`stub: ${file} is not valid JSON (${error.message}); answered as text`);
      }
    }
    return { result: { status: 'success', code: 200, response } };
  }

  /** Every pronghorn method: the last argument is the callback. */
  call(method, args, callback) {
    log.debug(`stub: ${method} answered from mock data`);
    const { result, error } = this.answer(method, args);
    setImmediate(() => (error ? callback(null, error) : callback(result, null)));
  }
}

module.exports = { StubAdapter };
