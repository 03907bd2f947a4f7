// Capabilities hold no module-level mutable state (issue #30): caches live in the
// instances the host makes per profile. This parses every core/**/*.ts file and fails
// on a top-level `let`/`var`, or a top-level `const` made with `new Map/Set/WeakMap/WeakSet`
// that is not typed ReadonlyMap/ReadonlySet, except the process-wide resources listed in
// docs/architecture.md ("Process-wide resources").
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const CORE = path.resolve(__dirname, '../../core');

/** `file:name` of the state that is one per process on purpose, each with why. */
const PROCESS_WIDE: Record<string, string> = {
  'store/embedded/store.ts:open': 'every store of the process naming the same SQLite file shares one connection',
  'store/embedded/checkpoint.ts:worker': 'one checkpoint worker thread per process',
  'store/embedded/checkpoint.ts:nextId': "the checkpoint worker's message ids",
  'store/embedded/checkpoint.ts:waiting': "the checkpoint worker's answers awaited",
  'store/embedded/checkpoint.ts:pending': 'at most one checkpoint queued per file for the one worker',
  'profiles/repository.ts:queues': "writes of one data directory's profiles queue behind each other, whichever service asks",
  'store/embedded/sqlite.ts:loaded': 'node:sqlite is loaded once per process',
  'engine/jobs/graph.ts:incomingCache': "each frozen workflow transitions object's incoming edges, kept by that object (weakly): derived, gone with it",
  'store/ping.ts:pending': 'keyed weakly by the store object: the ping in flight belongs to that store',
  'store/embedded/columns.ts:inserts': "each table layout's INSERT text, kept by the layout object (weakly): derived text, gone with its layout",
  'store/embedded/columns.ts:layoutIds': "a counter telling one connection's table layouts apart in the filter cache; it holds no data",
};

const MUTABLE_COLLECTIONS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet']);
const READONLY_TYPES = new Set(['ReadonlyMap', 'ReadonlySet']);

/** The top-level mutable state of one source file, by name. */
function moduleState(source: string, fileName = 'file.ts'): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const list = statement.declarationList;
    const isConst = (list.flags & ts.NodeFlags.Const) !== 0;
    for (const declaration of list.declarations) {
      const name = declaration.name.getText(file);
      if (!isConst) {
        found.push(name);
        continue;
      }
      const init = declaration.initializer;
      if (!init || !ts.isNewExpression(init) || !ts.isIdentifier(init.expression) || !MUTABLE_COLLECTIONS.has(init.expression.text)) continue;
      const type = declaration.type;
      const readonly = type !== undefined && ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName) && READONLY_TYPES.has(type.typeName.text);
      if (!readonly) found.push(name);
    }
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'cli' && dir === CORE ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

function coreState(): string[] {
  return sourceFiles(CORE).flatMap((file) => {
    const rel = path.relative(CORE, file).split(path.sep).join('/');
    return moduleState(readFileSync(file, 'utf8'), file).map((name) => `${rel}:${name}`);
  });
}

describe('module-level state in core/', () => {
  it('finds a top-level let and a mutable Map/Set, and lets readonly-typed constants through', () => {
    const found = moduleState(`
      let counter = 0;
      export let current: string | undefined;
      const cache = new Map<string, string>();
      export const seen = new WeakMap<object, number>();
      const NAMES: ReadonlySet<string> = new Set(['a']);
      const BY_CODE: ReadonlyMap<number, string> = new Map([[1, 'a']]);
      const LIMIT = 5;
      function inside() { let local = 1; const m = new Map(); return [local, m]; }
    `);
    expect(found).toEqual(['counter', 'current', 'cache', 'seen']);
  });

  it('holds none outside the process-wide resources', () => {
    const unexpected = coreState().filter((entry) => !(entry in PROCESS_WIDE));
    // Each is either moved into the service the host makes per profile, or typed ReadonlyMap/ReadonlySet when it never changes.
    expect(unexpected).toEqual([]);
  });

  it('lists only process-wide resources that are still there', () => {
    const present = new Set(coreState());
    expect(Object.keys(PROCESS_WIDE).filter((entry) => !present.has(entry))).toEqual([]);
  });
});
