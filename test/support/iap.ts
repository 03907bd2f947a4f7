// Exports of the automation service in its own folder layout (`prebuilts/<name>/manifest.json`,
// `bundles/<kind>/*.json`, `*.project.json`), from two places:
// - the project's own small fixtures (test/fixtures/iap), always there;
// - the shared corpus of real exports (../shared/corpus/iap beside the project, read at run time,
//   never copied), absent from a clone of the project alone.
// A test that reads the corpus runs under a title carrying CORPUS_TAG and skips, saying why, when it
// is absent; .ci/run counts those skips. The fixtures cover the same capability.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** In the title of every test or suite that reads the shared corpus (scripts/ci-summary.mjs counts their skips). */
export const CORPUS_TAG = '[corpus]';
export const FIXTURES_TAG = '[fixtures]';

export interface IapFile<T = Record<string, unknown>> {
  file: string;
  doc: T;
}

export interface JstDoc extends Record<string, unknown> {
  _id: string;
  name: string;
  incoming: { $id: string }[];
  outgoing: { $id: string }[];
}

export interface IapSource {
  /** `[corpus]` or `[fixtures]`, for test titles. */
  tag: string;
  dir: string;
  prebuiltsDir: string;
  present: boolean;
  /** Why tests of this source skip (empty when present). */
  skipReason: string;
  /** Every `bundles/workflows/*.json` of every pre-built. */
  workflows(): IapFile[];
  /** Every `*.project.json` of every pre-built. */
  projects(): IapFile[];
  /** Every `bundles/transformations/*.json` of every pre-built. */
  transformations(): IapFile<JstDoc>[];
  /** The transformation of that name; throws naming it when there is none. */
  transformation(name: string): JstDoc;
  /** A pre-built's folder, by its folder name. */
  prebuilt(folder: string): string;
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

function bundleFiles<T>(prebuiltsDir: string, kind: string): IapFile<T>[] {
  const out: IapFile<T>[] = [];
  for (const prebuilt of readdirSync(prebuiltsDir).sort()) {
    const dir = path.join(prebuiltsDir, prebuilt, 'bundles', kind);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
      const file = path.join(dir, name);
      out.push({ file, doc: readJson<T>(file) });
    }
  }
  return out;
}

export function iapSource(tag: string, dir: string): IapSource {
  const prebuiltsDir = path.join(dir, 'prebuilts');
  const present = existsSync(prebuiltsDir);
  const transformations = () => (present ? bundleFiles<JstDoc>(prebuiltsDir, 'transformations') : []);
  return {
    tag,
    dir,
    prebuiltsDir,
    present,
    skipReason: present ? '' : `no exports at ${dir} (the shared corpus of real exports sits beside the project, as ../shared/corpus/iap)`,
    workflows: () => (present ? bundleFiles(prebuiltsDir, 'workflows') : []),
    projects: () => {
      if (!present) return [];
      const out: IapFile[] = [];
      for (const prebuilt of readdirSync(prebuiltsDir).sort()) {
        for (const name of readdirSync(path.join(prebuiltsDir, prebuilt)).sort()) {
          if (name.endsWith('.project.json')) out.push({ file: path.join(prebuiltsDir, prebuilt, name), doc: readJson(path.join(prebuiltsDir, prebuilt, name)) });
        }
      }
      return out;
    },
    transformations,
    transformation: (name) => {
      const found = transformations().find((c) => c.doc.name === name);
      if (!found) throw new Error(`no transformation named "${name}" in ${prebuiltsDir}`);
      return found.doc;
    },
    prebuilt: (folder) => path.join(prebuiltsDir, folder),
  };
}

export const FIXTURES_DIR = path.resolve(import.meta.dirname, '../fixtures/iap');
export const CORPUS_DIR = path.resolve(import.meta.dirname, '../..', '../shared/corpus/iap');

export const fixtures = iapSource(FIXTURES_TAG, FIXTURES_DIR);
export const corpus = iapSource(CORPUS_TAG, CORPUS_DIR);

/** Prints, once per test file, why that file's corpus tests skip. */
export function noteCorpusSkip(what: string): void {
  if (!corpus.present) console.warn(`${what} skipped ${CORPUS_TAG}: ${corpus.skipReason}`);
}
