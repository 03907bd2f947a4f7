// What a workflow's run does differently under each release the upgrade can start from: the
// behaviours the release notes of 2022.1 name (sections 1.1 and 4.1), one entry per release.
// The engine takes an entry as a parameter (EngineOptions.semantics, passed down to the task run,
// the child-job start and the codePointAt task); nothing else in the engine branches on a release.

export const SEMANTICS_RELEASES = ['2021.1', '2021.2', '2022.1'] as const;
export type SemanticsRelease = (typeof SEMANTICS_RELEASES)[number];

export interface ReleaseSemantics {
  release: SemanticsRelease;
  /** How an undefined value goes into the store: as null (before 2021.1.10), or as `~4undefined` read back as undefined. */
  undefinedStored: 'null' | 'marker';
  /** A variable passed to a child job as undefined: arrives as null (2022.1) or stays undefined. */
  childUndefined: 'null' | 'undefined';
  /** codePointAt with an out-of-range position: an error (2022.1), or "" with status 204. */
  codePointAtOutOfRange: 'error' | 'empty-204';
  /** What this release does unlike 2022.1, each with the release-notes section that says so. */
  differences: { behaviour: string; section: string }[];
}

const UNDEFINED_AS_NULL = { behaviour: 'an undefined value is stored as null (and read back as null)', section: '1.1 item 1' };
const CHILD_UNDEFINED = { behaviour: 'a variable passed to a child job as undefined stays undefined (2022.1: null)', section: '1.1 item 4' };
const CODE_POINT_204 = { behaviour: 'codePointAt with an out-of-range position gives "" with status 204 (2022.1: an error)', section: '4.1 items 1-2; 7' };

/** The one table: what each release changes. */
export const RELEASE_SEMANTICS: Record<SemanticsRelease, ReleaseSemantics> = {
  '2021.1': {
    release: '2021.1',
    undefinedStored: 'null',
    childUndefined: 'undefined',
    codePointAtOutOfRange: 'empty-204',
    differences: [UNDEFINED_AS_NULL, CHILD_UNDEFINED, CODE_POINT_204],
  },
  '2021.2': {
    release: '2021.2',
    undefinedStored: 'marker',
    childUndefined: 'undefined',
    codePointAtOutOfRange: 'empty-204',
    differences: [CHILD_UNDEFINED, CODE_POINT_204],
  },
  '2022.1': { release: '2022.1', undefinedStored: 'marker', childUndefined: 'null', codePointAtOutOfRange: 'error', differences: [] },
};

/** The engine's semantics unless told otherwise: this console's release. */
export const DEFAULT_SEMANTICS: ReleaseSemantics = RELEASE_SEMANTICS['2022.1'];
