// The error taxonomy holds in the code itself: outside core/errors/ no error status (4xx, 5xx) is
// named in core (an error constructed with one, an answer sent with one, a status compared with one):
// errors name a code, and the table in core/errors/codes.ts gives its status. The pure decision core
// (core/engine/jobs/decide.ts and what it imports) throws domain errors only (core/errors/domain.ts):
// none of its files constructs a ConsoleError or names a code's status.
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CORE = path.join(ROOT, 'core');

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return tsFiles(full);
    return /\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/**
 * The code of a source, its string literals emptied and its comments removed (prose may name a status),
 * lines kept. A regular expression literal is read as code (none in core holds a quote or a slash pair).
 */
export function codeOnly(source: string): string {
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === '/' && next === '/') {
      while (i < source.length && source[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? source.length : end + 2;
      out += source.slice(i, stop).replace(/[^\n]/g, '');
      i = stop - 1;
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < source.length && source[j] !== c) j += source[j] === '\\' ? 2 : 1;
      out += '""' + source.slice(i, j + 1).replace(/[^\n]/g, '');
      i = j;
    } else out += c;
  }
  return out;
}

const STATUS = String.raw`[45]\d\d\b`;
const NAMED_STATUS: [string, RegExp][] = [
  ['an error constructed with a status', new RegExp(String.raw`\bnew\s+\w+\s*\(\s*${STATUS}`)],
  ['a base constructor given a status', new RegExp(String.raw`\bsuper\s*\(\s*${STATUS}`)],
  ['an answer sent with a status', new RegExp(String.raw`\.(status|code|writeHead|setStatus)\s*\(\s*${STATUS}`)],
  ['a status field set or compared', new RegExp(String.raw`\b(status|statusCode)\s*(:|===?|!==?|>=?|<=?)\s*${STATUS}`)],
  ['a status turned into a code', new RegExp(String.raw`\bcodeOfStatus\s*\(\s*${STATUS}`)],
  ['the removed OpError', /\bOpError\b/],
];

/** Each line of `source` that names an error status, with what it does. */
export function namedStatuses(source: string): string[] {
  return codeOnly(source)
    .split('\n')
    .flatMap((line) => NAMED_STATUS.filter(([, pattern]) => pattern.test(line)).map(([what]) => `${what}: ${line.trim()}`));
}

describe('no error status named in core outside core/errors/', () => {
  it('finds what it looks for, and not in prose', () => {
    expect(namedStatuses(`throw new OpError(409, 'job is already complete');`)).toHaveLength(2);
    expect(namedStatuses(`  super(503, 'stopped');`)).toEqual(["a base constructor given a status: super(503, \"\");"]);
    expect(namedStatuses(`reply.status(404).send(body);`)).toHaveLength(1);
    expect(namedStatuses(`if (error.status === 404) return;`)).toHaveLength(1);
    expect(namedStatuses(`return { statusCode: 413, message };`)).toHaveLength(1);
    expect(namedStatuses(`// answers 409 when the name exists\nconst summary = 'a 404 when absent';`)).toEqual([]);
    expect(namedStatuses(`throw new ConsoleError('conflict', 'job is already complete');`)).toEqual([]);
  });

  it('core names a code, never a status: the table in core/errors/ alone gives statuses', () => {
    const found = tsFiles(CORE)
      .filter((file) => !file.startsWith(path.join(CORE, 'errors') + path.sep))
      .flatMap((file) => namedStatuses(readFileSync(file, 'utf8')).map((hit) => `${path.relative(ROOT, file)}: ${hit}`));
    expect(found).toEqual([]);
  });
});

/** The files a module imports at run time (relative imports; `import type` is left out), recursively. */
function importClosure(entry: string): string[] {
  const seen = new Set<string>();
  const queue = [entry];
  for (let file = queue.shift(); file; file = queue.shift()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(/^\s*(?:import|export)\s+(type\s+)?[^'";]*?from\s+'(\.[^']+)'/gm)) {
      if (match[1]) continue;
      const base = path.resolve(path.dirname(file), match[2]!);
      const found = [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => existsSync(candidate));
      if (found) queue.push(found);
    }
  }
  return [...seen];
}

describe('the pure decision core throws domain errors only', () => {
  const closure = importClosure(path.join(CORE, 'engine/jobs/decide.ts'));

  it('is what decide.ts imports: the operator actions and the undefined codec among them', () => {
    const names = closure.map((file) => path.relative(CORE, file));
    expect(names).toEqual(expect.arrayContaining(['engine/jobs/decide.ts', 'engine/jobs/actions.ts', 'values/undefined-codec.ts']));
  });

  it('constructs no ConsoleError, names no code or status, and reaches no transport', () => {
    const own = closure.filter((file) => !file.startsWith(path.join(CORE, 'errors') + path.sep) && !file.startsWith(path.join(CORE, 'contract') + path.sep));
    const found = own.flatMap((file) => {
      const code = codeOnly(readFileSync(file, 'utf8'));
      const hits = [/\bConsoleError\b/, /\bstatusOf\b/, /\bERROR_CODES\b/, /\bcodeOfStatus\b/].filter((pattern) => pattern.test(code)).map(String);
      return hits.map((hit) => `${path.relative(ROOT, file)}: ${hit}`);
    });
    expect(found).toEqual([]);
    expect(closure.map((file) => path.relative(CORE, file)).filter((name) => name.startsWith('dispatch/') || name.startsWith('http/'))).toEqual([]);
  });
});
