// What the operator asked for, per profile: whether each application and adapter instance should
// run. Kept in the profile's store (`console_service_states`, `{ _id: "<kind>:<name>", wanted }`),
// so a stopped Operations Manager on a standby stays stopped across console restarts.
import type { Store } from '../store/port';

export type ServiceKind = 'application' | 'adapter';

export const DESIRED_STATE_COLLECTION = 'console_service_states';

export interface DesiredStates {
  /** Names of the kind the operator stopped. */
  stopped(kind: ServiceKind): Promise<Set<string>>;
  set(kind: ServiceKind, name: string, wanted: boolean): Promise<void>;
  forget(kind: ServiceKind, name: string): Promise<void>;
}

export function storeDesiredStates(store: Store): DesiredStates {
  const states = () => store.collection(DESIRED_STATE_COLLECTION);
  return {
    async stopped(kind) {
      const docs = await states().find({ kind, wanted: false });
      return new Set(docs.map((d) => String(d.name)));
    },
    async set(kind, name, wanted) {
      const _id = `${kind}:${name}`;
      const updated = await states().updateOne({ _id }, { $set: { wanted, at: new Date().toISOString() } });
      if (updated.matched === 0) await states().insertOne({ _id, kind, name, wanted, at: new Date().toISOString() });
    },
    async forget(kind, name) {
      await states().deleteOne({ _id: `${kind}:${name}` });
    },
  };
}
