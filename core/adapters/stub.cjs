// Stub mode: an adapter whose `properties.stub` is true answers from its package's own mock data
// and never reaches a live system. The console answers in the adapter's place, without loading
// the package's code, so a package whose dependencies are not installed runs in stub mode too.
//
// It answers as the service's adapter library does (adapter-utils: propertyUtil reads each
// `entities/<entity>/action.json`, connectorRest's returnStub picks the mock, restHandler shapes
// the answer). A method is the action of the same name (else the one whose name differs only in
// case); health is the `.system` entity's `healthcheck` action. Each responseObject with a
// `mockFile` is a mock answer; its `type` is matched, case-insensitive, against in turn:
//   1. the request body's values as `<field>-<value>`, depth first (nested objects, arrays);
//   2. the path variables' values (URI-encoded), in the order of the path;
//   3. the query's `key=value` pairs;
//   4. `WITHBODY` when there is a body (a JSON request always has one: `{}` at least);
//   5. `WITHPATHV1`, `WITHPATHV2`… when the path has path variables;
//   6. `WITHQUERY`, then `WITHOPTIONS`, when the path has a query (`?`);
//   7. `DEFAULT`.
// A responseObject with an empty `mockFile` is not a mock answer; nothing matching is the
// library's "no mock data" failure (code 400). A mock file whose JSON has both `status` and
// `response` answers that code and response (a code outside 2xx is an error); the
// responseObject's `key` (a path such as `data.items`) picks a part of a JSON answer; PLAIN, XML
// and XML2JSON answers are the file's text.
//
// Without the package's code we do not know how a method turns its inputs into a request; as
// the generated adapters do: the first N scalar inputs in pronghorn order fill `{pathv1}`…
// `{pathvN}` of the action's `entitypath`, the other scalar inputs are query parameters (by
// input name, when truthy), object or array inputs whose name says `query` are the query, and
// the other object or array inputs are the body (one: its value; several: an object by input
// name). `iapMetadata`, `callProperties` and header inputs are none of these.
'use strict';
const EventEmitter = require('node:events');
const fs = require('node:fs');
const path = require('node:path');
const querystring = require('node:querystring');

const SYSTEM = '.system';
/** The response datatypes the library keeps; any other is PLAIN. */
const RESPONSE_TYPES = ['JSON', 'XML', 'URLENCODE', 'XML2JSON', 'GZIP2XML2JSON', 'GZIP2XML', 'GZIP2JSON', 'GZIP2PLAIN'];
const TEXT_TYPES = ['PLAIN', 'XML', 'XML2JSON'];
const NOT_REQUEST = /^(iapMetadata|callProperties|addlHeaders|additionalHeaders|headers?)$/i;

const isObjectLike = (value) => typeof value === 'object' && value !== null;
const given = (value) => value !== undefined && value !== null && value !== '';

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

function readActions(packageDir) {
  const byEntity = [];
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
      json = readJson(file);
    } catch (error) {
      if (error.code === 'ENOENT') continue;
      log.warn(`stub: ${file} cannot be read: ${error.message}`);
      continue;
    }
    for (const action of json && Array.isArray(json.actions) ? json.actions : []) {
      if (action && typeof action.name === 'string') byEntity.push({ entity, dir: path.join(root, entity), action });
    }
  }
  // Methods are looked up outside `.system` first (its actions are the library's own).
  const ordered = [...byEntity.filter((a) => a.entity !== SYSTEM), ...byEntity.filter((a) => a.entity === SYSTEM)];
  const exact = new Map();
  const folded = new Map();
  for (const found of ordered) {
    if (!exact.has(found.action.name)) exact.set(found.action.name, found);
    const lower = found.action.name.toLowerCase();
    if (!folded.has(lower)) folded.set(lower, found);
  }
  const health = byEntity.find((a) => a.entity === SYSTEM && a.action.name === 'healthcheck');
  return { exact, folded, health };
}

/** An input as the console reads it (package.ts): a bare name, or none, still takes its place. */
function inputOf(input, i) {
  if (typeof input === 'string') return { name: input };
  if (!isObjectLike(input) || Array.isArray(input)) return { name: `input${i + 1}` };
  return typeof input.name === 'string' ? input : { ...input, name: `input${i + 1}` };
}

/** pronghorn.json's methods by name: their inputs say how the call's arguments become a request. */
function readInputs(packageDir) {
  const inputs = new Map();
  try {
    const pronghorn = readJson(path.join(packageDir, 'pronghorn.json'));
    for (const method of Array.isArray(pronghorn.methods) ? pronghorn.methods : []) {
      if (method && typeof method.name === 'string') inputs.set(method.name, Array.isArray(method.input) ? method.input.map(inputOf) : []);
    }
  } catch (error) {
    log.warn(`stub: pronghorn.json cannot be read: ${error.message}`);
  }
  return inputs;
}

function errorObject(id, origin, displayString, recommendation, code, raw) {
  return { icode: 'AD.500', IAPerror: { origin: `${id}-${origin}`, displayString, recommendation, code, raw_response: raw } };
}


/** How one input is sent, from its declared type, else from the value given. */
function isScalarInput(input, value) {
  const type = typeof input.type === 'string' ? input.type.toLowerCase() : undefined;
  if (type === 'object' || type === 'array') return false;
  if (type) return true;
  return !isObjectLike(value);
}

/** The request a generated adapter would build from these inputs for this action (see the comment at the top). */
function requestOf(action, inputs, args) {
  const entitypath = typeof action.entitypath === 'string' ? action.entitypath : '';
  const numbers = [...entitypath.matchAll(/\{pathv(\d+)\}/g)].map((m) => Number(m[1]));
  const wanted = numbers.length ? Math.max(...numbers) : 0;
  const pathVars = [];
  const query = {};
  const bodies = [];
  inputs.forEach((input, i) => {
    const value = args[i];
    const name = typeof input.name === 'string' ? input.name : `input${i + 1}`;
    if (NOT_REQUEST.test(name)) return;
    if (isScalarInput(input, value)) {
      if (pathVars.length < wanted) pathVars.push(value);
      else if (value) query[name] = value;
    } else if (/query/i.test(name)) {
      if (isObjectLike(value) && !Array.isArray(value)) for (const [k, v] of Object.entries(value)) if (v !== undefined && v !== null) query[k] = v;
    } else if (given(value)) bodies.push([name, value]);
  });
  const body = bodies.length === 0 ? undefined : bodies.length === 1 ? bodies[0][1] : Object.fromEntries(bodies);
  return { entitypath, pathVars, query, body };
}

/** The text the library would send as the body: JSON always sends one (`{}` at least). */
function bodyText(action, body) {
  const type = String(action.requestDatatype || action.datatype || 'JSON').toUpperCase();
  if ((type === 'PLAIN' || type === 'XML') && !isObjectLike(body)) return body === undefined || body === null ? '' : String(body);
  if (type === 'URLENCODE') return querystring.stringify(isObjectLike(body) ? body : {});
  return JSON.stringify(body === undefined || body === null ? {} : body);
}

/** checkBodyData's order: each field as `<field>-<value>`, nested objects and arrays of objects depth first. */
function bodyTypes(object, out = []) {
  if (!isObjectLike(object)) return out;
  for (const [key, value] of Object.entries(object)) {
    if (value === undefined || value === null || value === '') continue;
    if (typeof value === 'object' && !Array.isArray(value)) bodyTypes(value, out);
    else if (Array.isArray(value) && value.length > 0 && typeof value[0] === 'object') value.forEach((item) => bodyTypes(item, out));
    else if (Array.isArray(value)) value.forEach((item) => out.push(`${key}-${item}`));
    else out.push(`${key}-${value}`);
  }
  return out;
}

/** The types to match, in the library's order, for this request. */
function candidateTypes(action, request) {
  const types = [];
  const requestType = String(action.requestDatatype || action.datatype || 'JSON').toUpperCase();
  const text = bodyText(action, request.body);
  if (text && (requestType === 'JSON' || requestType === 'URLENCODE')) {
    let parsed;
    try {
      parsed = requestType === 'URLENCODE' ? querystring.parse(text) : JSON.parse(text);
    } catch {
      parsed = null;
    }
    types.push(...bodyTypes(parsed));
  }
  const [pathPart, queryPart] = request.entitypath.split('?');
  const placeholders = [...pathPart.matchAll(/\{pathv(\d+)\}/g)].map((m) => Number(m[1]));
  for (const n of placeholders) {
    const value = request.pathVars[n - 1];
    types.push(value === undefined || value === null || value === '' ? `{pathv${n}}` : encodeURIComponent(String(value)));
  }
  // The query goes where `{query}` is, and the library then keeps nothing else of the path's own
  // query (`?Action=X&{query}` becomes `?<query>`, or no query at all when there is none to send).
  if (request.entitypath.includes('{query}')) {
    types.push(...Object.entries(request.query).map(([k, v]) => querystring.stringify({ [k]: v })).filter(Boolean));
  } else if (queryPart) types.push(...queryPart.split('&').filter(Boolean));
  if (text) types.push('WITHBODY');
  placeholders.forEach((_, i) => types.push(`WITHPATHV${i + 1}`));
  if (queryPart !== undefined) types.push('WITHQUERY', 'WITHOPTIONS');
  types.push('DEFAULT');
  return types;
}

/** The first responseObject (of those `usable`) whose type is the first candidate that any has. */
function pick(responses, types, usable) {
  for (const type of types) {
    const upper = type.toUpperCase();
    const found = responses.find((r) => usable(r) && typeof r.type === 'string' && r.type.toUpperCase() === upper);
    if (found) return found;
  }
  return undefined;
}

/** A responseObject's `key` on a JSON answer: a dotted path with [n] indexes (json-query's simple paths). */
function pickKey(value, key) {
  const steps = key.replace(/\[(\d+)\]/g, '.$1').split('.').filter(Boolean);
  if (!steps.length) return value;
  let at = value;
  for (const step of steps) {
    if (!isObjectLike(at)) return undefined;
    at = at[step];
  }
  return at;
}

class StubAdapter extends EventEmitter {
  constructor(id, properties, packageDir) {
    super();
    this.id = id;
    this.properties = properties || {};
    this.packageDir = packageDir;
    this.actions = readActions(packageDir);
    this.inputs = readInputs(packageDir);
  }

  connect() {
    this.emit('OFFLINE', { id: this.id });
    this.healthCheck(null, () => undefined);
  }

  /** Healthy when the package's `.system` healthcheck action answers from mock data (or there is none to ask). */
  healthCheck(reqObj, callback) {
    let answer = { result: { status: 'success', code: 200, response: {} } };
    if (this.actions.health) {
      const check = this.properties.healthcheck || {};
      const query = isObjectLike(check.query_object) ? check.query_object : {};
      const request = { entitypath: String(this.actions.health.action.entitypath || ''), pathVars: [], query, body: undefined };
      answer = this.answerFor(this.actions.health, 'healthcheck', request);
    }
    if (answer.error) {
      this.emit('OFFLINE', { id: this.id });
      return callback(false, answer.error);
    }
    this.emit('ONLINE', { id: this.id });
    return callback(true);
  }

  /** The entity action of a method: the same name, else the same name but for case. */
  actionOf(method) {
    return this.actions.exact.get(method) || this.actions.folded.get(String(method).toLowerCase());
  }

  /** The mock answer of a method for these inputs (in pronghorn order): `{ result }` or `{ error }` (adapter error object). */
  answer(method, args) {
    const found = this.actionOf(method);
    if (!found) return this.failure(`no mock data for ${method}: no entity action of that name`);
    return this.answerFor(found, method, requestOf(found.action, this.inputs.get(method) || [], args));
  }

  failure(message, code = 400, response) {
    const raw = response === undefined ? { status: 'failure', code, message } : { status: 'success', code, response };
    const error = errorObject(this.id, 'connectorRest-handleEndResponse', `Error ${code} received on request`, 'Verify the request is accurate via debug logs and postman', code, raw);
    if (response !== undefined) error.response = response;
    return { error };
  }

  answerFor(found, method, request) {
    const { action } = found;
    const where = `${found.entity}/${action.name}`;
    const responses = Array.isArray(action.responseObjects) ? action.responseObjects.filter(isObjectLike) : [];
    const types = candidateTypes(action, request);
    const chosen = pick(responses, types, (r) => !!r.mockFile);
    if (!chosen) return this.failure(`no mock data for ${where}`);
    log.debug(`stub: ${method} answered from ${where} ${chosen.mockFile} (type ${chosen.type})`);
    const file = path.resolve(found.dir, String(chosen.mockFile));
    if (!file.startsWith(this.packageDir + path.sep)) return this.failure(`no mock data for ${where}: ${chosen.mockFile} is outside the package`);
    let text;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (error) {
      return this.failure(`no mock data for ${where}: ${chosen.mockFile}: ${error.code || error.message}`);
    }
    let datatype = String(action.responseDatatype || action.datatype || 'JSON').toUpperCase();
    if (!RESPONSE_TYPES.includes(datatype)) datatype = 'PLAIN';
    let mock;
    if (TEXT_TYPES.includes(datatype)) mock = text || (datatype === 'PLAIN' ? 'mock file empty!' : '<mock>file empty!</mock>');
    else {
      try {
        mock = JSON.parse(text);
      } catch (error) {
        log.warn(`stub: ${file} is not valid JSON (${error.message})`);
        mock = { mock: 'file empty or parse error!' };
      }
    }
    let code = 200;
    let response = mock;
    if (isObjectLike(mock) && Object.hasOwn(mock, 'status') && Object.hasOwn(mock, 'response')) {
      code = mock.status;
      response = mock.response;
    }
    if (!(Number(code) >= 200 && Number(code) <= 299)) return this.failure(undefined, code, response);
    // restHandler's key: the responseObject its own match picks (mock file or not), on a JSON answer.
    const keyed = pick(responses, types, (r) => Object.hasOwn(r, 'key'));
    if (keyed && typeof keyed.key === 'string' && keyed.key !== '' && !TEXT_TYPES.includes(datatype) && isObjectLike(response)) response = pickKey(response, keyed.key);
    return { result: { status: 'success', code, response } };
  }

  /** Every pronghorn method: the last argument is the callback. */
  call(method, args, callback) {
    const { result, error } = this.answer(method, args);
    if (error) log.debug(`stub: ${method}: ${error.IAPerror.raw_response.message || error.IAPerror.displayString}`);
    setImmediate(() => (error ? callback(null, error) : callback(result, null)));
  }
}

module.exports = { StubAdapter, requestOf, candidateTypes };
