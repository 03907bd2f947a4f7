// A minimal adapter. The console runs it in its own process and calls the functions of
// `methods` with the task's incoming variables (`args`) and a context ({ id, config, log }).
// What a method returns (JSON) is the task's result; what it throws is the task's error.

let online = true;

/** Called once when the adapter process starts, with the merged configuration. */
export async function start(config, context) {
  context.log(`starting with greeting "${config.greeting}"`);
}

/** Called when the console stops the adapter: close connections here. */
export async function stop() {}

/** Asked for by the Health page: is the system this adapter talks to reachable? */
export function connectionState() {
  return online ? 'ONLINE' : { state: 'OFFLINE', detail: 'switched off with setConnection' };
}

export const methods = {
  async echo(args, context) {
    if (typeof args.message !== 'string') throw new Error('echo: "message" must be a string');
    return { message: args.message, greeting: context.config.greeting };
  },

  async add(args) {
    const { a, b } = args;
    if (typeof a !== 'number' || typeof b !== 'number') throw new Error('add: "a" and "b" must be numbers');
    return { sum: a + b };
  },

  async setConnection(args) {
    if (typeof args.online !== 'boolean') throw new Error('setConnection: "online" must be true or false');
    online = args.online;
    return { online };
  },
};
