// A minimal adapter in the service's format (see README.md). The console constructs it as
// `new Example(id, properties)`, calls connect(), listens for ONLINE / OFFLINE / DEGRADED / FIXED,
// calls healthCheck(reqObj, callback) on the schedule of properties.healthcheck, and calls each
// pronghorn.json method with its inputs in order and a last callback(result, error).
/* global log */
'use strict';
const EventEmitter = require('node:events');

class Example extends EventEmitter {
  constructor(id, properties) {
    super();
    this.id = id;
    this.props = properties || {};
    this.online = true;
  }

  connect() {
    log.info(`${this.id}: connecting with greeting "${this.props.greeting}"`);
    this.emit('ONLINE', { id: this.id });
  }

  healthCheck(reqObj, callback) {
    if (this.online) return callback({ id: this.id, status: 'success' });
    return callback(null, { icode: 'AD.500', IAPerror: { origin: `${this.id}-healthCheck`, displayString: 'switched off with setConnection' } });
  }

  echo(message, callback) {
    if (typeof message !== 'string') {
      return callback(null, { icode: 'AD.300', IAPerror: { origin: `${this.id}-echo`, displayString: 'message is required and must be a string' } });
    }
    return callback({ message, greeting: this.props.greeting });
  }

  add(a, b, callback) {
    if (typeof a !== 'number' || typeof b !== 'number') {
      return callback(null, { icode: 'AD.300', IAPerror: { origin: `${this.id}-add`, displayString: 'a and b must be numbers' } });
    }
    return callback({ sum: a + b });
  }

  setConnection(online, callback) {
    this.online = online === true;
    this.emit(this.online ? 'ONLINE' : 'OFFLINE', { id: this.id });
    return callback({ online: this.online });
  }
}

module.exports = Example;
module.exports.Example = Example;
