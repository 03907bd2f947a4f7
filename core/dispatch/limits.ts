// Limits on what one call may carry, the same for both transports. A document nested deeper
// than any real export (the service's largest projects nest about 25 levels) would exhaust
// the stack of every recursive reader after it (validation, the store, JSON output), so it is
// refused at the door with a 400 naming where it goes too deep. Every check here is linear in
// the size of what it reads and holds at most one small frame per level, so no body within the
// size limit can exhaust memory on its way in.

/** Deepest nesting of objects and arrays accepted in a body or query. */
export const MAX_DEPTH = 256;
/** Largest HTTP body accepted, in bytes (a 2022.1 project export is well under 1 MB). */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;
/** Most values (objects, arrays, scalars) one body may hold; a large project export holds a few thousand. */
export const MAX_VALUES = 1_000_000;

/** What a body's text breaks, found before it is parsed. */
export interface TextLimitBreach {
  code: 'bad_input' | 'too_large';
  message: string;
}

/** A key kept for a path in a message: long keys are cut, so a frame stays small. */
const keyForPath = (key: string) => (key.length > 40 ? `${key.slice(0, 40)}…` : key);

/**
 * One pass over JSON text, before it is parsed: the first container opened deeper than `maxDepth`
 * (with the path to it) or more than `maxValues` values. Invalid JSON is left to the parser.
 */
export function checkJsonText(text: string, maxDepth = MAX_DEPTH, maxValues = MAX_VALUES, what = 'one request'): TextLimitBreach | undefined {
  // One frame per open container: an array's index or an object's last key.
  const frames: { array: boolean; index: number; key: string }[] = [];
  let values = 0;
  let keyStart = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i + 1;
      for (i = start; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) i++;
        else if (d === 0x22) break;
      }
      const top = frames[frames.length - 1];
      // A string right after `{` or `,` in an object is a key, not a value.
      if (top && !top.array && keyStart === start - 1) top.key = keyForPath(text.slice(start, i));
      else values++;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      values++;
      if (frames.length >= maxDepth) {
        const path = frames.map((f) => (f.array ? String(f.index) : f.key));
        return { code: 'bad_input', message: `body: nested deeper than ${maxDepth} levels (at ${shortPath(['body', ...path])})` };
      }
      frames.push({ array: c === 0x5b, index: 0, key: '' });
      keyStart = c === 0x7b ? nextToken(text, i + 1) : -1;
      if (keyStart >= 0) i = keyStart - 1;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      frames.pop();
    } else if (c === 0x2c /* , */) {
      const top = frames[frames.length - 1];
      if (top?.array) top.index++;
      else if (top) {
        keyStart = nextToken(text, i + 1);
        i = keyStart - 1;
      }
    } else if (c === 0x74 || c === 0x66 || c === 0x6e || c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      // true, false, null or a number: one value, its remaining characters skipped.
      values++;
      while (i + 1 < text.length && isNumberOrWordChar(text.charCodeAt(i + 1))) i++;
    }
    if (values > maxValues) {
      return { code: 'too_large', message: tooManyValues(maxValues, what) };
    }
  }
  return undefined;
}

/** The answer to a body holding more than `max` values. */
export const tooManyValues = (max: number, what = 'one request') => `body: more than ${max.toLocaleString('en')} values, the most ${what} may carry`;

/** Whether `value` holds more than `max` values (objects, arrays, scalars): stops counting past `max`. */
export function moreValuesThan(value: unknown, max: number): boolean {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (++count > max) return true;
    if (node === null || typeof node !== 'object') continue;
    // One at a time: a spread of a million items would overflow the call's arguments.
    for (const item of Array.isArray(node) ? node : Object.values(node)) stack.push(item);
  }
  return false;
}

/** Letters, digits, `.`, `+` and `-`: the rest of a literal or a number. */
function isNumberOrWordChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x2e || c === 0x2b || c === 0x2d;
}

/** Index of the first character after whitespace from `from`. */
function nextToken(text: string, from: number): number {
  let i = from;
  while (i < text.length && /\s/.test(text[i] ?? '')) i++;
  return i;
}

/**
 * The path of the first value nested deeper than `max`, or undefined. Depth first with one
 * frame per open level (its keys and position), so the memory is the depth, not the size.
 */
export function tooDeep(value: unknown, max = MAX_DEPTH): string[] | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  // An array's positions are counted, not listed, so a wide array costs no keys.
  const frame = (node: object) => ({ node, keys: Array.isArray(node) ? undefined : Object.keys(node), size: Array.isArray(node) ? node.length : 0, at: 0 });
  const keyAt = (f: ReturnType<typeof frame>, at: number) => (f.keys ? (f.keys[at] ?? '') : String(at));
  const frames = [frame(value)];
  while (frames.length) {
    const top = frames[frames.length - 1];
    if (!top || top.at >= (top.keys ? top.keys.length : top.size)) {
      frames.pop();
      continue;
    }
    const child: unknown = Reflect.get(top.node, keyAt(top, top.at++));
    if (typeof child !== 'object' || child === null) continue;
    if (frames.length >= max) return frames.map((f) => keyAt(f, f.at - 1));
    frames.push(frame(child));
  }
  return undefined;
}

/** `a.b.c...x.y` for a long path: its start and end. */
export function shortPath(path: string[]): string {
  return path.length <= 6 ? path.join('.') : `${path.slice(0, 3).join('.')}...${path.slice(-2).join('.')}`;
}
