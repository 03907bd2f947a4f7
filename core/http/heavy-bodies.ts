// Large request bodies take their turn: one at a time, from the moment the body has arrived until
// its answer is sent (parsing, validation, the handler's work), with a turn of the event loop before
// each. Eight large job starts at once then hold the console's other routes (GET /health/status,
// the UI's polls) for one chunk of one request's work at a time, not for all of them queued back to
// back, and only one large body is built into objects at a time (the others wait as their text).
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** A body at least this large (in characters) waits for its turn. */
export const HEAVY_BODY_CHARS = 64 * 1024;

/** The turns of one server: `take` resolves when the request's turn comes; its answer (or abort) ends the turn. */
export function heavyBodyTurns(app: FastifyInstance) {
  let tail: Promise<void> = Promise.resolve();
  const ends = new WeakMap<FastifyRequest['raw'], () => void>();
  const end = (request: FastifyRequest) => {
    ends.get(request.raw)?.();
    ends.delete(request.raw);
  };
  app.addHook('onResponse', async (request) => end(request));
  app.addHook('onRequestAbort', async (request) => end(request));
  return {
    take(request: FastifyRequest): Promise<void> {
      let finish!: () => void;
      const turn = new Promise<void>((resolve) => (finish = resolve));
      const ready = tail.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
      tail = tail.then(() => turn);
      ends.set(request.raw, finish);
      return ready;
    },
  };
}
