// The JST documents of the real exports (../shared/corpus/iap, read at run time, never copied)
// and of the project's own fixtures (test/fixtures/iap), through one interface (test/support/iap.ts).
import { corpus, type IapFile, type JstDoc } from '../support/iap';

export { corpus, fixtures, CORPUS_TAG, noteCorpusSkip } from '../support/iap';
export const CORPUS = corpus.dir;
export const PREBUILTS = corpus.prebuiltsDir;

export type CorpusDoc = IapFile<JstDoc>;

export const corpusAvailable = (): boolean => corpus.present;
export const corpusTransformations = (): CorpusDoc[] => corpus.transformations();
export const corpusDoc = (name: string): JstDoc => corpus.transformation(name);
/** The workflows of the corpus, for their transformation tasks. */
export const corpusWorkflows = (): IapFile<Record<string, unknown> & { tasks: Record<string, Record<string, unknown>> }>[] =>
  corpus.workflows() as IapFile<Record<string, unknown> & { tasks: Record<string, Record<string, unknown>> }>[];
