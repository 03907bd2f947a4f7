// The real exports of the automation service, read at run time from ../shared/corpus/iap
// (never copied into the project). Tests that need them skip, saying why, when absent; the
// project's own fixtures (test/fixtures/iap, see ./iap.ts) cover the same capabilities.
import { corpus, type IapFile } from './iap';

export { CORPUS_DIR, CORPUS_TAG, noteCorpusSkip } from './iap';
export const PREBUILTS_DIR = corpus.prebuiltsDir;
export const corpusPresent = corpus.present;

export type CorpusFile = IapFile;

/** Every `bundles/workflows/*.json` of every pre-built. */
export const corpusWorkflows = (): CorpusFile[] => corpus.workflows();

/** Every `*.project.json` of every pre-built. */
export const corpusProjects = (): CorpusFile[] => corpus.projects();
