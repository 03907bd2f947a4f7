// node:sqlite, loaded without its ExperimentalWarning: Node prints it once when
// the module is first loaded, on every console start. Only that warning is held
// back; any other warning emitted meanwhile goes through.
import { createRequire } from 'node:module';
import type * as Sqlite from 'node:sqlite';
import { errorMessage } from '../../errors';

export type { DatabaseSync, StatementSync } from 'node:sqlite';

// Process-wide on purpose: a module is loaded once per process; kept so its warning is held back once.
let loaded: typeof Sqlite | undefined;

export function sqlite(): typeof Sqlite {
  if (loaded) return loaded;
  const original = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === 'string' ? warning : warning.message;
    const [options] = rest;
    const type: unknown = typeof options === 'string' ? options : typeof options === 'object' && options !== null ? Reflect.get(options, 'type') : undefined;
    if ((type === 'ExperimentalWarning' || (typeof warning !== 'string' && warning.name === 'ExperimentalWarning')) && /SQLite/i.test(text)) return;
    Reflect.apply(original, process, [warning, ...rest]);
  };
  // require() is untyped; the module is given node:sqlite's own types here.
  let module: typeof Sqlite;
  try {
    module = createRequire(import.meta.url)('node:sqlite');
  } finally {
    process.emitWarning = original;
  }
  loaded = module;
  return module;
}

/**
 * Why this runtime cannot run the console, or undefined when it can: the embedded store is
 * node:sqlite, built into Node from 22.13 (and into the Node inside Electron).
 */
export function runtimeProblem(): string | undefined {
  try {
    sqlite();
    return undefined;
  } catch (error) {
    const runtime = process.versions.electron ? `Electron ${process.versions.electron} (Node ${process.versions.node})` : `Node ${process.versions.node}`;
    return `the console cannot run on ${runtime}: it has no node:sqlite (${errorMessage(error)}), which the embedded store needs; the console needs Node >= 22.13 with node:sqlite`;
  }
}
