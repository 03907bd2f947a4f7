// What a simulated method answers: per method, an ordered list of rules kept in the instance's
// service config (`simulation.methods.<method>.rules`). The first rule that applies answers:
// its `match` is a JSON subset of the call's named arguments, `nth` fails (or answers) only the
// nth call of the method, `share` a share of its calls (spread evenly, so 0.25 is every 4th).
// A rule answers `response` (the adapter's result) or `error` (its error object) after
// `latencyMs`. With no rule applying, the default is the shape real adapters return.

export interface SimulationRule {
  match?: Record<string, unknown>;
  nth?: number;
  share?: number;
  latencyMs?: number;
  response?: unknown;
  error?: unknown;
}

export interface SimulatedMethod {
  rules?: SimulationRule[];
  /**
   * The method's outgoing variable as its pronghorn.json names it (`output.name`), when known (an
   * installed package of the type, or the recorded real instance). Unknown: the answer goes to the
   * outgoing variable(s) the calling task declares (core/engine/jobs/execute.ts).
   */
  output?: string;
}

/** The `simulation` section of a simulated instance's service config. */
export interface Simulation {
  /** The workflows the instance was made for. */
  workflows?: string[];
  methods: Record<string, SimulatedMethod>;
}

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether `subset` is contained in `value`: every key of an object (deeply), every element of an array at its index, equal scalars. */
export function matchesSubset(subset: unknown, value: unknown): boolean {
  if (isObject(subset)) return isObject(value) && Object.entries(subset).every(([key, inner]) => matchesSubset(inner, value[key]));
  if (Array.isArray(subset)) return Array.isArray(value) && subset.every((inner, i) => matchesSubset(inner, value[i]));
  return subset === value;
}

/** The answer real adapters give (IAP's adapter-utils: `{ status, code, response }`). */
export const defaultResponse = (method: string) => ({ status: 'success', code: 200, response: {}, simulated: method });

/** An error object in the shape adapters give their callback: `{ icode, IAPerror: { displayString, code } }`. */
export function errorObject(instance: string, method: string, given: unknown): unknown {
  if (isObject(given)) return given;
  const text = typeof given === 'string' && given !== '' ? given : `simulated failure of ${method}`;
  return { icode: 'AD.500', IAPerror: { origin: `${instance}-simulated-${method}`, displayString: text, code: 500 } };
}

/** Whether the `count`th call (1-based) is in a share of calls, spread evenly. */
const inShare = (share: number, count: number) => Math.floor(count * share) > Math.floor((count - 1) * share);

export function ruleApplies(rule: SimulationRule, args: Obj, count: number): boolean {
  if (rule.match !== undefined && !matchesSubset(rule.match, args)) return false;
  if (typeof rule.nth === 'number' && rule.nth !== count) return false;
  if (typeof rule.share === 'number' && !inShare(rule.share, count)) return false;
  return true;
}

export type SimulatedAnswer = { ok: true; value: unknown } | { ok: false; error: unknown };

/** What the `count`th call of `method` answers, and after how long. */
export function answerOf(instance: string, method: string, rules: readonly SimulationRule[], given: { args: Obj; count: number }): { answer: SimulatedAnswer; latencyMs: number } {
  const rule = rules.find((r) => ruleApplies(r, given.args, given.count));
  const latencyMs = typeof rule?.latencyMs === 'number' && rule.latencyMs > 0 ? rule.latencyMs : 0;
  if (rule && rule.error !== undefined) return { answer: { ok: false, error: errorObject(instance, method, rule.error) }, latencyMs };
  if (rule && rule.response !== undefined) return { answer: { ok: true, value: rule.response }, latencyMs };
  // A rule that only fails (nth or share with no response) fails with the default error.
  if (rule && (rule.nth !== undefined || rule.share !== undefined)) return { answer: { ok: false, error: errorObject(instance, method, undefined) }, latencyMs };
  return { answer: { ok: true, value: defaultResponse(method) }, latencyMs };
}

/** Checks a `simulation` section (PUT of the whole service config): each problem names its path. */
export function simulationIssues(value: unknown, at: string): { path: string; message: string }[] {
  if (!isObject(value)) return [{ path: at, message: 'expected { methods: { <method>: { rules: [...] } } }' }];
  if (!isObject(value.methods)) return [{ path: `${at}.methods`, message: 'expected an object of methods' }];
  const issues: { path: string; message: string }[] = [];
  for (const [method, spec] of Object.entries(value.methods)) {
    const here = `${at}.methods.${method}`;
    if (!isObject(spec)) {
      issues.push({ path: here, message: 'expected { rules: [...] }' });
      continue;
    }
    if (spec.output !== undefined && !(typeof spec.output === 'string' && spec.output !== '')) issues.push({ path: `${here}.output`, message: "expected the method's outgoing variable name (pronghorn.json output.name)" });
    if (spec.rules === undefined) continue;
    if (!Array.isArray(spec.rules)) {
      issues.push({ path: `${here}.rules`, message: 'expected an array' });
      continue;
    }
    spec.rules.forEach((rule: unknown, i) => issues.push(...ruleIssues(rule, `${here}.rules.${i}`)));
  }
  return issues;
}

function ruleIssues(rule: unknown, at: string): { path: string; message: string }[] {
  if (!isObject(rule)) return [{ path: at, message: 'expected a rule object' }];
  const issues: { path: string; message: string }[] = [];
  if (rule.match !== undefined && !isObject(rule.match)) issues.push({ path: `${at}.match`, message: "expected an object (a JSON subset of the call's arguments)" });
  if (rule.nth !== undefined && !(Number.isInteger(rule.nth) && Number(rule.nth) >= 1)) issues.push({ path: `${at}.nth`, message: 'expected a whole number from 1' });
  if (rule.share !== undefined && !(typeof rule.share === 'number' && rule.share >= 0 && rule.share <= 1)) issues.push({ path: `${at}.share`, message: 'expected a number from 0 to 1' });
  if (rule.latencyMs !== undefined && !(typeof rule.latencyMs === 'number' && rule.latencyMs >= 0 && rule.latencyMs <= 600_000)) issues.push({ path: `${at}.latencyMs`, message: 'expected milliseconds from 0 to 600000' });
  return issues;
}

/** The `simulation` section of a service config, or undefined for a real instance. */
export function simulationOf(config: Record<string, unknown>): Simulation | undefined {
  const value = config.simulation;
  if (!isObject(value) || !isObject(value.methods)) return undefined;
  const methods: Record<string, SimulatedMethod> = {};
  for (const [name, spec] of Object.entries(value.methods)) {
    const rules = isObject(spec) && Array.isArray(spec.rules) ? spec.rules.filter(isObject).map(toRule) : [];
    const output = isObject(spec) && typeof spec.output === 'string' && spec.output !== '' ? spec.output : undefined;
    methods[name] = { rules, ...(output ? { output } : {}) };
  }
  const workflows = Array.isArray(value.workflows) ? value.workflows.filter((w): w is string => typeof w === 'string') : undefined;
  return { methods, ...(workflows ? { workflows } : {}) };
}

function toRule(raw: Obj): SimulationRule {
  return {
    ...(isObject(raw.match) ? { match: raw.match } : {}),
    ...(typeof raw.nth === 'number' ? { nth: raw.nth } : {}),
    ...(typeof raw.share === 'number' ? { share: raw.share } : {}),
    ...(typeof raw.latencyMs === 'number' ? { latencyMs: raw.latencyMs } : {}),
    ...('response' in raw ? { response: raw.response } : {}),
    ...('error' in raw ? { error: raw.error } : {}),
  };
}
