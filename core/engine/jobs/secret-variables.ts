// The job variables whose value holds a secret, as the one classifier (core/secrets/classify.ts)
// finds them: a secret name (`password`, `otp`, `session_id`), a secret inside a text (a URL's
// password, a JWT), or either anywhere inside an object. The job page masks them until revealed.
import { classifyField, isSecretKey } from '../../secrets/classify';

/** At most this many values are looked at per job: a job of a million values is not walked whole on each read. */
const MAX_VISITS = 20_000;

export function secretVariables(variables: Record<string, unknown>): string[] {
  let budget = MAX_VISITS;
  const holdsSecret = (key: string, value: unknown, depth: number): boolean => {
    if (--budget < 0) return false;
    if (classifyField(key, value) !== 'plain') return true;
    if (value === null || typeof value !== 'object' || depth > 20) return false;
    if (Array.isArray(value)) return value.some((item) => (isSecretKey(key) && typeof item === 'string' && item !== '') || holdsSecret(key, item, depth + 1));
    return Object.entries(value).some(([k, item]) => holdsSecret(k, item, depth + 1));
  };
  return Object.keys(variables).filter((name) => holdsSecret(name, variables[name], 0));
}
