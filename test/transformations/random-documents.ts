// Random JST documents built from the method table, wired at random (cycles, missing
// steps, wrong types, deep pointers included), for the fuzz test and the compiled-form comparison.
import fc from 'fast-check';
import { methodNames } from '../../core/transformations/library/index';
import type { JstDocument, Step } from '../../core/transformations/types';

const methods = methodNames().filter((name) => !name.startsWith('Date.') || name === 'Date.parse');
export const json = fc.jsonValue({ maxDepth: 3 });
const pointer = fc.constantFrom('', '/a', '/0', '/a/b', '/-', '/__proto__');

export const document = fc
  .record({
    calls: fc.array(fc.record({ method: fc.constantFrom(...methods), args: fc.array(fc.oneof(json, fc.constant(null), fc.constantFrom('fn', 'missing')), { maxLength: 4 }) }), { maxLength: 6 }),
    wires: fc.array(
      fc.record({
        from: fc.oneof(fc.constant('incoming:x'), fc.nat(7).map((n) => `step:${n}`)),
        fromPtr: fc.constantFrom('', '/return', '/return/0', '/args/0/value'),
        to: fc.oneof(fc.constant('outgoing:y'), fc.nat(7).map((n) => `step:${n}`)),
        toPtr: fc.oneof(fc.nat(3).map((n) => `/args/${n}/value`), pointer),
      }),
      { maxLength: 10 },
    ),
    fnMethod: fc.constantFrom(...methods),
  })
  .map(({ calls, wires, fnMethod }): JstDocument => {
    const [library, method] = [fnMethod.slice(0, fnMethod.indexOf('.')), fnMethod.slice(fnMethod.indexOf('.') + 1)];
    const steps: Step[] = calls.map((c, i) => ({ id: i, type: 'method', library: c.method.slice(0, c.method.indexOf('.')), method: c.method.slice(c.method.indexOf('.') + 1), args: c.args }));
    wires.forEach((w, i) => {
      const end = (key: string, ptr: string) => {
        const [location, name] = key.split(':') as [string, string];
        return { location: location === 'step' ? 'method' : location, name: location === 'step' ? Number(name) : name, ptr };
      };
      steps.push({ id: 100 + i, type: 'assign', from: end(w.from, w.fromPtr), to: end(w.to, w.toPtr) });
    });
    return {
      name: 'fuzz',
      incoming: [{ $id: 'x' }],
      outgoing: [{ $id: 'y' }],
      steps,
      functions: [{ name: 'fn', incoming: [{ $id: 'e' }, { $id: 'i' }], outgoing: [{ $id: 'r' }], steps: [
        { id: 1, type: 'method', library, method, args: [null, null] },
        { id: 2, type: 'assign', from: { location: 'incoming', name: 'e', ptr: '' }, to: { location: 'method', name: 1, ptr: '/args/0/value' } },
        { id: 3, type: 'assign', from: { location: 'method', name: 1, ptr: '/return' }, to: { location: 'outgoing', name: 'r', ptr: '' } },
      ] }],
    };
  });
