// node:sqlite, loaded without its ExperimentalWarning: Node prints it once when
// the module is first loaded, on every console start. Only that warning is held
// back; any other warning emitted meanwhile goes through.
import { createRequire } from 'node:module';
import type * as Sqlite from 'node:sqlite';
import { errorMessage } from '../../errors';

export type { DatabaseSync, StatementSync } from 'node:sqlite';

let loaded: typeof Sqlite | undefined;

export function sqlite(): typeof Sqlite {
  if (loaded) return loaded;
  const original = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === 'string' ? warning : warning.message;
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    if ((type === 'ExperimentalWarning' || (warning as Error).name === 'ExperimentalWarning') && /SQLite/i.test(text)) return;
    return (original as (...args: unknown[]) => void).call(process, warning, ...rest);
  };
  try {
    loaded = createRequire(import.meta.url)('node:sqlite') as typeof Sqlite;
  } finally {
    process.emitWarning = original;
  }
  return loaded;
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
