// Random documents built from the method table, wired at random (cycles, missing
// steps, wrong types, deep pointers included), run with small limits: a run either
// answers or ends with a TransformationError naming its cause, never another
// exception (which the API would answer as a 500) and never hangs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TransformationError } from '../../core/transformations/errors';
import { runTransformation } from '../../core/transformations/interpreter';
import { document, json } from './random-documents';

describe('random documents', () => {
  it('answer or end with a TransformationError, within their limits', () => {
    fc.assert(
      fc.property(document, json, (doc, x) => {
        const started = Date.now();
        try {
          runTransformation(doc, { x }, { timeoutMs: 200, maxSteps: 20_000, maxDepth: 8 });
        } catch (error) {
          if (!(error instanceof TransformationError)) throw new Error(`not a TransformationError: ${(error as Error)?.stack ?? String(error)}`, { cause: error });
        }
        expect(Date.now() - started).toBeLessThan(2_000);
      }),
      { numRuns: 400, seed: 20221 },
    );
  });
});
