import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildMatrix } from './null-undefined-matrix';

const DOC = path.resolve(import.meta.dirname, '../../../docs/null-undefined-matrix.md');

describe('docs/null-undefined-matrix.md', () => {
  it('matches what the tasks really return (UPDATE_MATRIX=1 rewrites it)', async () => {
    const generated = await buildMatrix();
    if (process.env.UPDATE_MATRIX === '1') {
      writeFileSync(DOC, generated);
      console.log(`rewrote ${DOC}`);
    }
    expect(existsSync(DOC), `${DOC} is missing: run UPDATE_MATRIX=1 npx vitest run test/engine/tasks/null-undefined-matrix.test.ts`).toBe(true);
    const committed = readFileSync(DOC, 'utf8');
    expect(committed, 'the matrix is out of date: run UPDATE_MATRIX=1 npx vitest run test/engine/tasks/null-undefined-matrix.test.ts').toBe(generated);
  });

  it('records codePointAt ending in error for an undefined str and the child-job null rule', async () => {
    const generated = await buildMatrix();
    expect(generated).toMatch(/\| codePointAt \| str \| `error: codePointAt: str must be a string, got null` \| `error: codePointAt: str must be a string, got undefined` \|/);
    expect(generated).toMatch(/\| `undefined` \| `"~4undefined"` \| `undefined` \| `\{\}` \| `null` \|/);
  });
});
