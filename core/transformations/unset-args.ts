// An argument the designer left unset: the JST designer exports a method step's argument nobody
// filled as `null` in its `args` (`"args": [null]`). JavaScript's call of that method has no such
// argument: the unset ones at the end are left out, one unset before a given one is `undefined`
// there (`new String` of an unset argument is `String()`, ""). A value wired into the argument, null
// included, is given as it is (`String(null)` is "null"). Both the interpreter and the compiled
// steps call the library through `givenArguments`.
import type { PlanNode } from './plan';

/** The positions of a step's `args` the document leaves unset: null there and no wire writes them. */
export function unsetPositions(node: PlanNode): number[] {
  const declared: unknown = node.step?.args;
  if (!Array.isArray(declared)) return [];
  const wired = new Set<number>();
  for (const wire of node.inbound) {
    if (wire.argIndex !== undefined) wired.add(wire.argIndex);
    else if (wire.toTokens[0] === 'args' && wire.toTokens[1] !== undefined) wired.add(Number(wire.toTokens[1]));
  }
  const out: number[] = [];
  declared.forEach((value: unknown, i) => {
    if (value === null && !wired.has(i)) out.push(i);
  });
  return out;
}

/** The arguments JavaScript is given, `unset` being the positions the document leaves unset. */
export function givenArguments(args: unknown[], unset: readonly number[]): unknown[] {
  if (unset.length === 0) return args;
  const isUnset = new Set(unset);
  let end = args.length;
  while (end > 0 && isUnset.has(end - 1)) end -= 1;
  const out = args.slice(0, end);
  for (const i of unset) if (i < end) out[i] = undefined;
  return out;
}
