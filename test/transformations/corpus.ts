// The real JST documents of the corpus, read at run time from ../shared/corpus/iap (never copied).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const CORPUS = path.resolve(import.meta.dirname, '../../../shared/corpus/iap');
export const PREBUILTS = path.join(CORPUS, 'prebuilts');

export interface CorpusDoc {
  file: string;
  doc: Record<string, unknown> & { _id: string; name: string; incoming: { $id: string }[]; outgoing: { $id: string }[] };
}

export function corpusAvailable(): boolean {
  return existsSync(PREBUILTS);
}

export function corpusTransformations(): CorpusDoc[] {
  if (!corpusAvailable()) return [];
  const out: CorpusDoc[] = [];
  for (const prebuilt of readdirSync(PREBUILTS)) {
    const dir = path.join(PREBUILTS, prebuilt, 'bundles', 'transformations');
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
      const file = path.join(dir, name);
      out.push({ file, doc: JSON.parse(readFileSync(file, 'utf8')) });
    }
  }
  return out;
}

export function corpusDoc(name: string): CorpusDoc['doc'] {
  const found = corpusTransformations().find((c) => c.doc.name === name);
  if (!found) throw new Error(`no corpus transformation named "${name}"`);
  return found.doc;
}

/** The workflows of the corpus, for their transformation tasks. */
export function corpusWorkflows(): { file: string; doc: Record<string, unknown> & { tasks: Record<string, Record<string, unknown>> } }[] {
  if (!corpusAvailable()) return [];
  const out = [];
  for (const prebuilt of readdirSync(PREBUILTS)) {
    const dir = path.join(PREBUILTS, prebuilt, 'bundles', 'workflows');
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
      const file = path.join(dir, name);
      out.push({ file, doc: JSON.parse(readFileSync(file, 'utf8')) });
    }
  }
  return out;
}
