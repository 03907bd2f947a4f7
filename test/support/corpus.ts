// The real exports of the automation service, read at run time from ../shared/corpus/iap
// (never copied into the project). Tests that need them skip, saying why, when absent.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const CORPUS_DIR = path.resolve(import.meta.dirname, '../..', '../shared/corpus/iap');
export const PREBUILTS_DIR = path.join(CORPUS_DIR, 'prebuilts');
export const corpusPresent = existsSync(PREBUILTS_DIR);
if (!corpusPresent) console.warn(`corpus tests skipped: no corpus of real exports at ${CORPUS_DIR}`);

export interface CorpusFile {
  file: string;
  doc: Record<string, unknown>;
}

/** Every `bundles/workflows/*.json` of every pre-built. */
export function corpusWorkflows(): CorpusFile[] {
  if (!corpusPresent) return [];
  const out: CorpusFile[] = [];
  for (const prebuilt of readdirSync(PREBUILTS_DIR).sort()) {
    const dir = path.join(PREBUILTS_DIR, prebuilt, 'bundles', 'workflows');
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) {
      if (!name.endsWith('.json')) continue;
      const file = path.join(dir, name);
      out.push({ file, doc: JSON.parse(readFileSync(file, 'utf8')) });
    }
  }
  return out;
}

/** Every `*.project.json` of every pre-built. */
export function corpusProjects(): CorpusFile[] {
  if (!corpusPresent) return [];
  const out: CorpusFile[] = [];
  for (const prebuilt of readdirSync(PREBUILTS_DIR).sort()) {
    for (const name of readdirSync(path.join(PREBUILTS_DIR, prebuilt))) {
      if (name.endsWith('.project.json')) {
        const file = path.join(PREBUILTS_DIR, prebuilt, name);
        out.push({ file, doc: JSON.parse(readFileSync(file, 'utf8')) });
      }
    }
  }
  return out;
}
