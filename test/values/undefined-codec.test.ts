import { describe, expect, it } from 'vitest';
import {
  childJobVariables,
  decodeValue,
  decodeVariables,
  encodeValue,
  encodeVariables,
  MarkerValueError,
  rejectMarker,
  UNDEFINED_MARKER,
} from '../../core/values/undefined-codec';

describe('undefined codec', () => {
  it('uses the marker of releases 2021.1.10 / 2021.2.4', () => {
    expect(UNDEFINED_MARKER).toBe('~4undefined');
  });

  it('stores a top-level undefined as the marker and reads it back as undefined', () => {
    expect(encodeValue(undefined)).toBe('~4undefined');
    expect(decodeValue('~4undefined')).toBeUndefined();
  });

  it('encodes undefined inside nested objects and arrays, keeping keys and slots', () => {
    const value = { a: undefined, b: { c: undefined, d: [1, undefined, { e: undefined }] }, n: null };
    const stored = encodeValue(value);
    expect(stored).toEqual({
      a: '~4undefined',
      b: { c: '~4undefined', d: [1, '~4undefined', { e: '~4undefined' }] },
      n: null,
    });
    // JSON (what a store keeps) no longer loses the undefined keys
    const roundTripped = decodeValue(JSON.parse(JSON.stringify(stored))) as Record<string, any>;
    expect('a' in roundTripped).toBe(true);
    expect(roundTripped.a).toBeUndefined();
    expect('c' in roundTripped.b).toBe(true);
    expect(roundTripped.b.c).toBeUndefined();
    expect(roundTripped.b.d).toHaveLength(3);
    expect(1 in roundTripped.b.d).toBe(true);
    expect(roundTripped.b.d[1]).toBeUndefined();
    expect('e' in roundTripped.b.d[2]).toBe(true);
    expect(roundTripped.n).toBeNull();
  });

  it('keeps null as null both ways', () => {
    expect(encodeValue(null)).toBeNull();
    expect(decodeValue(null)).toBeNull();
    expect(encodeValue({ x: null, y: [null] })).toEqual({ x: null, y: [null] });
  });

  it('reads records written before the marker existed (null) as null', () => {
    const legacy = { device: null, list: [null, 'a'], nested: { v: null } };
    expect(decodeValue(legacy)).toEqual(legacy);
    expect(decodeVariables(legacy)).toEqual(legacy);
  });

  it('leaves other values untouched, Dates included', () => {
    const date = new Date(0);
    const value = { s: 'text', n: 0, f: false, e: '', date };
    const stored = encodeValue(value) as Record<string, unknown>;
    expect(stored).toEqual(value);
    expect(stored.date).toBe(date);
    expect(decodeValue(stored)).toEqual(value);
  });

  it('does not change its input', () => {
    const input = { a: undefined, b: [undefined] };
    encodeValue(input);
    expect(input).toEqual({ a: undefined, b: [undefined] });
  });

  it('refuses a user string equal to the marker, naming its path', () => {
    expect(() => encodeVariables({ device: { tags: ['x', '~4undefined'] } })).toThrow(MarkerValueError);
    expect(() => encodeVariables({ device: { tags: ['x', '~4undefined'] } })).toThrow(/variables\.device\.tags\[1\]/);
    expect(() => rejectMarker({ 'odd key': '~4undefined' }, 'body.variables')).toThrow(/body\.variables\["odd key"\]/);
    try {
      rejectMarker({ a: { b: '~4undefined' } }, 'variables');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(MarkerValueError);
      expect((error as MarkerValueError).path).toBe('variables.a.b');
      expect((error as Error).message).toContain('would read back as undefined');
    }
  });

  it('accepts strings that only contain the marker', () => {
    expect(() => rejectMarker({ a: 'x~4undefined', b: '~4undefinedx' })).not.toThrow();
    expect(encodeValue('~4undefined!')).toBe('~4undefined!');
  });

  it('decodes missing variables as an empty record', () => {
    expect(decodeVariables(null)).toEqual({});
    expect(decodeVariables(undefined)).toEqual({});
  });
});

describe('childJobVariables (section 1.1.4)', () => {
  it('turns a variable passed as undefined into null', () => {
    const vars = childJobVariables({ a: undefined, b: 1 });
    expect(vars).toEqual({ a: null, b: 1 });
    expect('a' in vars).toBe(true);
    expect(vars.a).toBeNull();
  });

  it('does the same at any depth and for the stored marker', () => {
    expect(childJobVariables({ o: { x: undefined, y: [undefined, 2] }, m: '~4undefined' })).toEqual({
      o: { x: null, y: [null, 2] },
      m: null,
    });
  });

  it('keeps null and other values', () => {
    expect(childJobVariables({ n: null, s: 's', z: 0 })).toEqual({ n: null, s: 's', z: 0 });
    expect(childJobVariables(undefined)).toEqual({});
  });
});
