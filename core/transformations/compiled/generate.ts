// JavaScript written for one document's function (as ajv writes a validator per schema), so
// V8 gives each document its own code and its own lookup caches: closures shared by every
// document see every document's names and item shapes, and slow down as more documents run.
// No value of the document ever enters the text: every name and static value is an element
// of a constants array the text indexes (`c[3]`), the text's own names are made here (`a0`,
// `t2`, `c3`), so a document cannot inject code whatever its names hold. The interpreter stays
// the oracle: the tests run every document both ways and compare.
import { randomUUID } from 'node:crypto';
import { propertyReader } from '../library/object';
import { getAt } from '../pointer';

/**
 * An expression of a function's first three arguments (pure.ts): an argument, a static value, a
 * getProperty of a static name, a wire's pointer below a value (`at`, as the interpreter reads it),
 * a new object given values by static names in order, a comparison
 * (JavaScript's operator of an Equality or Relational method).
 */
export type Ir =
  | { kind: 'arg'; at: number }
  | { kind: 'const'; value: unknown }
  | { kind: 'get'; object: Ir; key: string }
  | { kind: 'at'; object: Ir; tokens: string[] }
  | { kind: 'new'; keys: string[]; values: Ir[] }
  | { kind: 'compare'; op: CompareOp; left: Ir; right: Ir };

/** The operators a comparison is written as. The loose and relational ones may call an object's conversion (which can throw). */
export type CompareOp = '===' | '!==' | '==' | '!=' | '<' | '>' | '<=' | '>=';
const STRICT: ReadonlySet<CompareOp> = new Set(['===', '!==']);

/**
 * What the written function answers instead of its value when a loose or relational comparison
 * meets an object, a function or a symbol: JavaScript would convert it, which may call its code or
 * throw. Nothing outside the function has been done by then; the caller makes the call as the
 * closures make it (compiled.ts), which answer or fail as the interpreter does.
 */
export const CANNOT_ANSWER: unique symbol = Symbol('the written function cannot answer this call');

/** The function's value (or CANNOT_ANSWER) from its first three arguments. */
type Expr = (a0: unknown, a1: unknown, a2: unknown) => unknown;
/** Array.map of the function (of one that cannot decline: the caller maps a declining one item by item). */
export type MapItems = (items: unknown[]) => unknown[];

/** What the text reads from outside itself, passed in as the constants array. */
const RUNTIME = { prototypeOf: Object.getPrototypeOf, objectPrototype: Object.prototype, hasOwn: Object.prototype.hasOwnProperty };

/** The text of one function being written: its constants and its lines. */
class Writer {
  readonly constants: unknown[] = [RUNTIME.prototypeOf, RUNTIME.objectPrototype, RUNTIME.hasOwn];
  readonly lines: string[] = [];
  /** The constructors of the objects the function makes (see `shape`), written before it. */
  readonly shapes: string[] = [];
  /** The constants of the names read (without hasOwnProperty on a plain object) and set (by a constructor of `shape`) when Object.prototype has none of them. */
  private readonly keys: string[] = [];
  private temps = 0;
  /** Whether the text may answer CANNOT_ANSWER. */
  mayDecline = false;

  /** A constant's name in the text (`c4`), never its value. */
  constant(value: unknown): string {
    return `c${this.constants.push(value) - 1}`;
  }

  temp(): string {
    return `t${this.temps++}`;
  }

  /** The expression's value as a name of the text (an argument, a constant, a temporary), its lines written first. */
  emit(ir: Ir): string {
    switch (ir.kind) {
      case 'arg':
        return `a${Math.trunc(ir.at)}`;
      case 'const':
        return this.constant(ir.value);
      case 'get':
        return this.get(this.emit(ir.object), ir.key);
      case 'at': {
        const object = this.emit(ir.object);
        const out = this.temp();
        const tokens = ir.tokens;
        this.lines.push(`const ${out} = ${this.constant((value: unknown) => getAt(value, tokens))}(${object});`);
        return out;
      }
      case 'new':
        return this.made(ir, undefined);
      case 'compare':
        return this.compare(ir);
    }
  }

  /** A comparison: a strict one as it is; a loose or relational one declines an operand JavaScript would convert by calling code. */
  private compare(ir: Extract<Ir, { kind: 'compare' }>): string {
    const left = this.emit(ir.left);
    const right = this.emit(ir.right);
    const out = this.temp();
    if (!STRICT.has(ir.op)) {
      this.mayDecline = true;
      const converts = (v: string) => `(typeof ${v} === 'object' ? ${v} !== null : typeof ${v} === 'function' || typeof ${v} === 'symbol')`;
      this.lines.push(`if (${converts(left)} || ${converts(right)}) return ${this.constant(CANNOT_ANSWER)};`);
    }
    this.lines.push(`const ${out} = ${left} ${ir.op} ${right};`);
    return out;
  }

  /**
   * getProperty of a static name, as propertyReader answers: on an object, its own property, else
   * undefined. A plain object (Object.prototype its prototype, which lacks every name the function
   * reads: `lean`, checked at each call of the function) is read without hasOwnProperty; `length`
   * and an index read strings too.
   */
  private get(object: string, key: string): string {
    const out = this.temp();
    if (key === 'length' || /^\d+$/.test(key)) {
      this.lines.push(`const ${out} = ${this.constant(propertyReader(key))}(${object});`);
      return out;
    }
    const k = this.constant(key);
    this.keys.push(k);
    // The read first, then the check: V8 then knows the value's shape there, and answers its prototype at once (about half the time of a pick).
    this.lines.push(
      `let ${out};`,
      `if (${object} !== null && typeof ${object} === 'object') {`,
      `  ${out} = ${object}[${k}];`,
      `  if (!(lean && c0(${object}) === c1) && !c2.call(${object}, ${k})) ${out} = undefined;`,
      `}`,
    );
    return out;
  }

  /**
   * A constructor of objects of these names (`M0`), set in order from its arguments, whose
   * prototype is Object.prototype: what it makes is a plain object as a literal would be. V8 makes
   * such objects at their final shape, as it does a class's instances; a literal of computed names
   * (the names are constants of the text, never written into it) adds them one by one. The 50-item
   * map of the bench: 0.2495 → 0.263 plain JavaScript (medians of six interleaved pairs of runs).
   */
  private shape(keys: string[]): string {
    const name = `M${this.shapes.length}`;
    const params = keys.map((_, i) => `p${i}`);
    // c1 is Object.prototype (RUNTIME.objectPrototype).
    this.shapes.push(`function ${name}(${params.join(', ')}) { ${keys.map((k, i) => `this[${k}] = p${i};`).join(' ')} }\n${name}.prototype = c1;`);
    return name;
  }

  /** The test of `lean`: Object.prototype has none of the names the function reads. */
  lean(): string {
    return this.keys.length === 0 ? 'true' : `!(${this.keys.map((k) => `${k} in c1`).join(' || ')})`;
  }

  /** A new object, its values set in order; with `json` (its constant's name), each value not JSON as it is clears `json.all`. */
  made(ir: Extract<Ir, { kind: 'new' }>, json: string | undefined): string {
    const values = ir.values.map((value) => this.emit(value));
    const out = this.temp();
    const keys = ir.keys.map((key) => this.constant(key));
    this.keys.push(...keys);
    // setProperty sets each name (as `o[name] = value`). Where Object.prototype has none of the
    // names (`lean`), no setter or read-only name can be met on the way, so the object is made by
    // a constructor of those names (`shape`): V8 makes it at its final size at once.
    const shape = this.shape(keys);
    this.lines.push(`let ${out};`, `if (lean) ${out} = new ${shape}(${values.join(', ')});`, `else {`, `  ${out} = {};`, ...keys.map((k, i) => `  ${out}[${k}] = ${values[i] ?? 'undefined'};`), `}`);
    if (json !== undefined && values.length > 0) {
      // Anything but an object, NaN and the infinities is JSON as it is (run-entry.ts's isJson).
      const scalar = (v: string) => `(typeof ${v} === 'string' || (typeof ${v} === 'object' ? ${v} === null : typeof ${v} !== 'number' || ${v} - ${v} === 0))`;
      this.lines.push(`if (!(${values.map(scalar).join(' && ')})) ${json}.all = false;`);
    }
    return out;
  }
}

/** The text of a function's answer and of Array.map of it, and the constants it indexes (`constants`, the text's one parameter). */
export interface PureSource {
  text: string;
  constants: unknown[];
  /** Whether the function may answer CANNOT_ANSWER. */
  mayDecline: boolean;
}

/**
 * The text of the function of an answer's expression, and of Array.map of it, written for this
 * function alone. `json`: cleared by an answer that is not JSON as it is (see PureAnswer);
 * `holes`: the count of holes in the last array mapped.
 */
export function pureSource(answer: Ir, json: { all: boolean } | undefined, holes: { count: number }): PureSource {
  const writer = new Writer();
  const watch = json ? writer.constant(json) : undefined;
  const value = answer.kind === 'new' ? writer.made(answer, watch) : writer.emit(answer);
  const counted = writer.constant(holes);
  const names = writer.constants.map((_, i) => `c${i}`);
  const text = [
    // A text of its own for each function written, so V8 keeps each one's code and lookup caches apart
    // (it shares them among functions made from the same text); the tag is hex digits and dashes.
    `// ${randomUUID()}`,
    `'use strict';`,
    `const [${names.join(', ')}] = constants;`,
    ...writer.shapes,
    `function answerWith(a0, a1, a2, lean) {`,
    ...writer.lines.map((line) => `  ${line}`),
    `  return ${value};`,
    `}`,
    `function answer(a0, a1, a2) {`,
    `  return answerWith(a0, a1, a2, ${writer.lean()});`,
    `}`,
    // Array.map's own steps (a new array of the length, holes left where the items have holes).
    `function mapItems(items) {`,
    `  const lean = ${writer.lean()};`,
    `  const n = items.length;`,
    `  const out = new Array(n);`,
    `  let holes = 0;`,
    `  for (let i = 0; i < n; i++) {`,
    // A hole reads undefined: only then is it asked whether the index is there.
    `    const item = items[i];`,
    `    if (item !== undefined || i in items) out[i] = answerWith(item, i, items, lean);`,
    `    else holes++;`,
    `  }`,
    `  ${counted}.count = holes;`,
    `  return out;`,
    `}`,
    `return { answer, mapItems };`,
  ].join('\n');
  return { text, constants: writer.constants, mayDecline: writer.mayDecline };
}

/** pureSource's functions, made. */
export function generatePure(answer: Ir, json: { all: boolean } | undefined, holes: { count: number }): { answer: Expr; mapItems: MapItems; mayDecline: boolean } {
  const { text, constants, mayDecline } = pureSource(answer, json, holes);
  const made = new Function('constants', text)(constants) as { answer: Expr; mapItems: MapItems };
  return { ...made, mayDecline };
}
