#!/usr/bin/env node
// Counts the type assertions in core/: `x as T`, `<T>x`, `x as unknown as T` (two) and the
// non-null `x!`, found by TypeScript's parser (so strings and comments never count).
// `as const` is not counted: it narrows a literal and asserts nothing the checker cannot see.
// Usage: node scripts/count-assertions.mjs [--by-file] [--max N]   (exit 1 above N)
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');

/** Every .ts file under `dir`, declaration files excluded. */
function tsFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : tsFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const isConstAssertion = (node) =>
  ts.isTypeReferenceNode(node.type) && ts.isIdentifier(node.type.typeName) && node.type.typeName.text === 'const';

/** The assertions of one source text, each with its kind and line. */
export function assertionsIn(fileName, text) {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found = [];
  const visit = (node) => {
    let kind;
    if (ts.isAsExpression(node) && !isConstAssertion(node)) kind = 'as';
    else if (ts.isTypeAssertionExpression(node) && !isConstAssertion(node)) kind = 'angle';
    else if (ts.isNonNullExpression(node)) kind = 'non-null';
    if (kind) found.push({ kind, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every assertion in the .ts files under `dir` (default: the project's core/). */
export function countAssertions(dir = join(root, 'core')) {
  const files = tsFiles(dir).map((path) => ({ file: relative(root, path), found: assertionsIn(path, readFileSync(path, 'utf8')) }));
  const total = files.reduce((sum, f) => sum + f.found.length, 0);
  const byKind = {};
  for (const f of files) for (const a of f.found) byKind[a.kind] = (byKind[a.kind] ?? 0) + 1;
  return { total, byKind, files: files.filter((f) => f.found.length > 0).sort((a, b) => b.found.length - a.found.length) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const maxAt = args.indexOf('--max');
  const max = maxAt >= 0 ? Number(args[maxAt + 1]) : undefined;
  const { total, byKind, files } = countAssertions();
  if (args.includes('--by-file')) for (const f of files) console.log(`${String(f.found.length).padStart(4)}  ${f.file}`);
  if (args.includes('--by-folder')) {
    const folders = {};
    for (const f of files) {
      const folder = f.file.split('/').slice(0, 2).join('/');
      folders[folder] = (folders[folder] ?? 0) + f.found.length;
    }
    for (const [folder, n] of Object.entries(folders).sort((a, b) => b[1] - a[1])) console.log(`${String(n).padStart(4)}  ${folder}`);
  }
  console.log(`type assertions in core: ${total} (${Object.entries(byKind).map(([k, n]) => `${k} ${n}`).join(', ')})${max !== undefined ? `, budget ${max}` : ''}`);
  if (max !== undefined && total > max) process.exit(1);
}
