// Each application's and adapter's recent states, as this console saw them: a bounded ring of
// changes per instance (the state, and an adapter's connection), kept in memory for the small
// timeline of the Health page. Fed whenever the console reads the states (the health lists, and the
// status every caller polls), so a change is seen within one poll; not kept across restarts.
import type { HealthItem } from '../contract/health';

export type StateChange = NonNullable<HealthItem['history']>[number];
type Kind = 'application' | 'adapter';

export class StateHistory {
  private readonly changes = new Map<string, StateChange[]>();

  /** `perItem` changes kept per instance; `items` instances at most (the longest unseen forgotten first). */
  constructor(
    readonly perItem = 20,
    readonly items = 1000,
  ) {}

  /** The state seen now; kept when it differs from the last one kept (state or connection; a connection not read is the last one). */
  observe(kind: Kind, id: string, seen: { state: StateChange['state']; connection?: StateChange['connection'] }, at = Date.now()): void {
    const key = `${kind}:${id}`;
    const { state, connection: seenConnection } = seen;
    const ring = this.changes.get(key);
    const last = ring?.at(-1);
    const connection = seenConnection ?? last?.connection;
    if (last && last.state === state && last.connection === connection) return;
    const change: StateChange = { at: new Date(at).toISOString(), state, ...(connection ? { connection } : {}) };
    if (!ring) {
      if (this.changes.size >= this.items) this.changes.delete(this.changes.keys().next().value!);
      this.changes.set(key, [change]);
      return;
    }
    ring.push(change);
    if (ring.length > this.perItem) ring.splice(0, ring.length - this.perItem);
    // Most recently changed last in the map's order: the first key is the one to forget.
    this.changes.delete(key);
    this.changes.set(key, ring);
  }

  /** The items as read, each seen now, with its recent changes (oldest first) in `history`. */
  withHistory(kind: Kind, items: HealthItem[], at = Date.now()): HealthItem[] {
    return items.map((item) => {
      this.observe(kind, item.id, { state: item.state, connection: item.connection?.state }, at);
      return { ...item, history: [...(this.changes.get(`${kind}:${item.id}`) ?? [])] };
    });
  }
}
