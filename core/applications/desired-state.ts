// What the operator asked for, per profile: whether each application and adapter instance should
// run. Kept in the profile's store (`console_service_states`, `{ _id: "<kind>:<name>", wanted }`),
// so a stopped Operations Manager on a standby stays stopped across console restarts. Given a
// server id, the states are that server's own (`_id: "<server>:<kind>:<name>"`): two sites on one
// database each keep theirs, so stopping the standby's applications never stops the active's.
import type { Store } from '../store/port';

export type ServiceKind = 'application' | 'adapter';

export const DESIRED_STATE_COLLECTION = 'console_service_states';

export interface DesiredStates {
  /** Names of the kind the operator stopped. */
  stopped(kind: ServiceKind): Promise<Set<string>>;
  set(kind: ServiceKind, name: string, wanted: boolean): Promise<void>;
  forget(kind: ServiceKind, name: string): Promise<void>;
}

export function storeDesiredStates(store: Store, serverId?: string): DesiredStates {
  const states = () => store.collection(DESIRED_STATE_COLLECTION);
  const idOf = (kind: ServiceKind, name: string) => (serverId ? `${serverId}:${kind}:${name}` : `${kind}:${name}`);
  const owner = serverId ? { serverId } : { serverId: { $exists: false } };
  return {
    async stopped(kind) {
      const docs = await states().find({ kind, wanted: false, ...owner });
      return new Set(docs.map((d) => String(d.name)));
    },
    async set(kind, name, wanted) {
      const _id = idOf(kind, name);
      const updated = await states().updateOne({ _id }, { $set: { wanted, at: new Date().toISOString() } });
      if (updated.matched === 0) {
        await states().insertOne({ _id, kind, name, wanted, ...(serverId ? { serverId } : {}), at: new Date().toISOString() });
      }
    },
    async forget(kind, name) {
      await states().deleteOne({ _id: idOf(kind, name) });
    },
  };
}
