// The type assertions in core/ stay within their budget (issue #30): `as X`, `<X>v`, `as unknown as X`
// (two) and non-null `!` count; `as const` does not. `node scripts/count-assertions.mjs --by-file` lists them.
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script with no declaration file
import { assertionsIn, countAssertions } from '../../scripts/count-assertions.mjs';

const BUDGET = 150;

describe('type assertions in core', () => {
  it('are found by the parser, each kind counted and `as const` left out', () => {
    const source = [
      'const a = value as string;',
      'const b = <number>value;',
      'const c = value as unknown as Date;',
      'const d = list[0]!;',
      "const e = ['x'] as const;",
      '// value as string in a comment',
      "const f = 'value as string in a string';",
    ].join('\n');
    const found: { kind: string; line: number }[] = assertionsIn('sample.ts', source);
    expect(found).toEqual([
      { kind: 'as', line: 1 },
      { kind: 'angle', line: 2 },
      { kind: 'as', line: 3 },
      { kind: 'as', line: 3 },
      { kind: 'non-null', line: 4 },
    ]);
  });

  it(`number at most ${BUDGET}`, () => {
    const { total, files } = countAssertions();
    const worst = files.slice(0, 10).map((f: { file: string; found: unknown[] }) => `${f.found.length} ${f.file}`);
    expect(total, `the files with the most: ${worst.join(', ')}`).toBeLessThanOrEqual(BUDGET);
  });
});
