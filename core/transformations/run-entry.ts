// What every run of a document does first and last, the interpreter's and the compiled
// form's alike: check the document's lists, fill the incoming defaults, check the incoming
// values, set the limits; then fill the outgoing defaults and give each value its JSON form.
// The parts of the document these read (its name, which schemas have defaults, each
// incoming schema's validator) are read once per entry: a compiled document keeps its entry
// for every run, so a run of a small document is not mostly this bookkeeping.
import type { ValidateFunction } from 'ajv';
import { TransformationError } from './errors';
import { checkValues, withDefaults, type IncomingValidators } from './incoming';
import type { Plan } from './plan';
import type { JsonSchema, JstDocument, JstScope, RunOptions } from './types';

export const DEFAULT_LIMITS = { timeoutMs: 5_000, maxSteps: 1_000_000, maxDepth: 64 };

/**
 * The time is checked at every 1,024th step (a mask: the step count's low bits all zero). A clock
 * read costs about 45 ns, a step of compiled code 1-2 ns: read every 256th step, the clock was about
 * a tenth of a compiled run (npm run bench -- transformations); a step that takes long is still
 * followed by a check within 1,024 steps.
 */
export const TIME_CHECK_MASK = 1023;

/** The limits and counters of one run. */
export interface Run {
  document: string;
  deadline: number;
  steps: number;
  maxSteps: number;
  maxDepth: number;
  timeoutMs: number;
  /** The plans of the nested functions this run has called, each planned once per run (the interpreter's; made when first needed). */
  plans: Map<JstScope, Plan> | undefined;
  /** Values the compiled form made that are JSON as they are and that no step changes (compiled.ts's mapAll): the end takes them as they are. */
  jsonValues?: object[];
}

export interface RunResult {
  outgoing: Record<string, unknown>;
}

/** An incoming schema's variable and its validator (or why ajv cannot read the schema). */
export interface IncomingCheck {
  name: string;
  validate: ValidateFunction | string;
}

export class RunEntry {
  readonly document: string;
  /** Why the document cannot run at all (a list that is not a list of schemas), thrown by every run as the interpreter does. */
  private readonly invalid: string | undefined;
  private readonly incomingDefaults: boolean;
  private readonly outgoingDefaults: boolean;
  private checks: IncomingCheck[] | undefined;

  constructor(
    private readonly doc: JstDocument,
    private readonly validators: IncomingValidators,
  ) {
    this.document = typeof doc?.name === 'string' && doc.name !== '' ? doc.name : String(doc?._id ?? 'unnamed');
    this.invalid = invalidLists(doc);
    this.incomingDefaults = hasDefaults(doc?.incoming);
    this.outgoingDefaults = hasDefaults(doc?.outgoing);
  }

  /** The run's incoming values (defaults filled) and its limits; throws what the document or the values break. */
  begin(incoming: Record<string, unknown>, options: RunOptions): { given: Record<string, unknown>; run: Run } {
    const { doc, document } = this;
    if (doc === null || typeof doc !== 'object') throw new TransformationError('invalid-document', 'the document is not an object', { document });
    if (this.invalid !== undefined) throw new TransformationError('invalid-document', this.invalid, { document });
    // A copy only when a default is to be filled in (steps read the incoming values, never write them).
    const fill = options.revertToDefaultValue !== false;
    const given = fill && this.incomingDefaults ? withDefaults(doc.incoming, incoming) : incoming !== null && typeof incoming === 'object' ? incoming : {};
    if (options.validateIncoming !== false) checkValues(document, (this.checks ??= this.incomingChecks()), given);
    const timeoutMs = options.timeoutMs ?? DEFAULT_LIMITS.timeoutMs;
    const run: Run = {
      document,
      deadline: Date.now() + timeoutMs,
      steps: 0,
      maxSteps: options.maxSteps ?? DEFAULT_LIMITS.maxSteps,
      maxDepth: options.maxDepth ?? DEFAULT_LIMITS.maxDepth,
      timeoutMs,
      plans: undefined,
    };
    return { given, run };
  }

  /**
   * The outgoing values: defaults for those never written, and the JSON form of each (but those
   * `asJson` holds, JSON as they are). `values` is the run's own answer object, written in place.
   */
  end(values: Record<string, unknown>, options: RunOptions, asJson?: object[]): RunResult {
    const outgoing = options.revertToDefaultValue !== false && this.outgoingDefaults ? withDefaults(this.doc.outgoing, values) : values;
    for (const name of Object.keys(outgoing)) {
      const value = outgoing[name];
      if (!(asJson && value !== null && typeof value === 'object' && asJson.includes(value))) outgoing[name] = toJson(value);
    }
    return { outgoing };
  }

  private incomingChecks(): IncomingCheck[] {
    return (this.doc.incoming ?? []).map((schema) => ({ name: String(schema.$id), validate: this.validators.validatorFor(schema) }));
  }
}

function invalidLists(doc: JstDocument): string | undefined {
  if (doc === null || typeof doc !== 'object') return undefined;
  for (const field of ['incoming', 'outgoing'] as const) {
    const list = doc[field];
    if (list !== undefined && (!Array.isArray(list) || list.some((schema) => schema === null || typeof schema !== 'object'))) {
      return `\`${field}\` must be an array of JSON schemas, each with its $id`;
    }
  }
  return undefined;
}

const hasDefaults = (schemas: JsonSchema[] | undefined) => Array.isArray(schemas) && schemas.some((schema) => schema?.default !== undefined);

/** The JSON form of a value made between steps: dates as ISO text, sets as arrays, expressions as /source/flags. */
function toJson(value: unknown): unknown {
  return isJson(value) ? value : copyAsJson(value);
}

/**
 * Whether a value is JSON as it is (a plain object of such values, a finite number, text, ...): nothing
 * to convert, nothing copied. An array is always copied: it may carry named properties (a match's
 * `index`) that its JSON form leaves out.
 */
function isJson(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return typeof value !== 'number' || Number.isFinite(value);
  if (Array.isArray(value) || Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const key in value) if (Object.prototype.hasOwnProperty.call(value, key) && !isJson(Reflect.get(value, key))) return false;
  return true;
}

function copyAsJson(value: unknown): unknown {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof RegExp) return value.toString();
  if (value instanceof Set) return [...value].map(toJson);
  if (Array.isArray(value)) return value.map(toJson);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = toJson(v);
    return out;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  return value;
}
