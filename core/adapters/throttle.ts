// An adapter instance's own throttle, as its service config's `properties.throttle` declares it
// (the service's adapter throttle properties): with `throttle_enabled`, at most `concurrent_max`
// calls are outstanding with the other system at once, the others wait in the instance's queue
// in the order they came; a call that finds `max_in_queue` calls waiting already is refused at
// once; `expire_timeout` ms pass between one call's send and the next. Without it (nearly every
// instance) calls are not bounded here: the task worker's bound counts them as running tasks.
import { AdapterError } from './errors';

export interface ThrottleSettings {
  concurrentMax: number;
  /** Calls allowed to wait; undefined: no bound. */
  maxInQueue?: number;
  /** Ms between one send and the next (0: none). */
  expireTimeoutMs: number;
}

const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : undefined);

/** The throttle an instance's properties declare, or undefined (not enabled, or no `concurrent_max` of 1 or more). */
export function throttleOf(properties: Record<string, unknown> | undefined): ThrottleSettings | undefined {
  const throttle = properties?.throttle;
  if (!throttle || typeof throttle !== 'object' || Array.isArray(throttle)) return undefined;
  const settings = throttle as Record<string, unknown>;
  if (settings.throttle_enabled !== true) return undefined;
  const concurrentMax = count(settings.concurrent_max);
  if (!concurrentMax) return undefined;
  return { concurrentMax, maxInQueue: count(settings.max_in_queue), expireTimeoutMs: count(settings.expire_timeout) ?? 0 };
}

/** The calls of one instance under its throttle. */
export class CallThrottle {
  private active = 0;
  private readonly queue: (() => void)[] = [];
  private lastSend = 0;

  constructor(
    readonly settings: ThrottleSettings,
    private readonly instance: string,
  ) {}

  /** Calls outstanding now, and waiting. */
  get load() {
    return { active: this.active, queued: this.queue.length };
  }

  /** Runs `call` once the throttle lets it; refuses it (AdapterError) when the queue is full. */
  async run<T>(method: string, call: () => Promise<T>): Promise<T> {
    const { concurrentMax, maxInQueue } = this.settings;
    if (this.active >= concurrentMax || this.queue.length > 0) {
      if (maxInQueue !== undefined && this.queue.length >= maxInQueue) {
        throw new AdapterError(
          'failed',
          this.instance,
          method,
          `adapter "${this.instance}" refused method "${method}": its throttle queue is full (${maxInQueue} calls waiting, properties.throttle.max_in_queue; ${concurrentMax} outstanding at most)`,
        );
      }
      // A slot is handed over by the call that ends (active stays counted for this one).
      await new Promise<void>((resolve) => this.queue.push(resolve));
    } else this.active++;
    try {
      await this.spaced();
      return await call();
    } finally {
      const next = this.queue.shift();
      if (next) next();
      else this.active--;
    }
  }

  /** Waits until `expire_timeout` ms passed since the last send. */
  private async spaced() {
    const { expireTimeoutMs } = this.settings;
    if (expireTimeoutMs <= 0) return;
    const wait = this.lastSend + expireTimeoutMs - Date.now();
    this.lastSend = Math.max(Date.now(), this.lastSend + expireTimeoutMs);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/** The throttles of a manager's instances, by id: made again when an instance's settings change. */
export class InstanceThrottles {
  private readonly byId = new Map<string, { config: unknown; throttle?: CallThrottle }>();

  /** The throttle of an instance with this service config, if its properties declare one. */
  of(config: { id: string; properties?: Record<string, unknown> }): CallThrottle | undefined {
    const known = this.byId.get(config.id);
    if (known?.config === config) return known.throttle;
    const settings = throttleOf(config.properties);
    // A changed config keeps the throttle in use while its settings are the same (its calls in flight stay counted).
    const same = known?.throttle && settings && JSON.stringify(known.throttle.settings) === JSON.stringify(settings);
    const throttle = same ? known.throttle : settings && new CallThrottle(settings, config.id);
    this.byId.set(config.id, { config, throttle });
    return throttle;
  }

  forget(id: string) {
    this.byId.delete(id);
  }
}
