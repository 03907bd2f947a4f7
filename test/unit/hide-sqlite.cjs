// Loaded with `node --require` (or required by a test, then `restore()`d): node:sqlite is
// answered as by a Node that has none (before 22.13, or a runtime built without it).
const Module = require('node:module');

const original = Module._load;
Module._load = function (request, parent, isMain) {
  if (request === 'node:sqlite') {
    const error = new Error(`No such built-in module: ${request}`);
    error.code = 'ERR_UNKNOWN_BUILTIN_MODULE';
    throw error;
  }
  return original.call(this, request, parent, isMain);
};

module.exports = {
  restore() {
    Module._load = original;
  },
};
