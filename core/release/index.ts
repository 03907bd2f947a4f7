// Release model (release notes, section 9): labels, the deprecation/removal table of 9.1, the
// deprecation policy check and the lifecycle of an item at a release.
export * from './label';
export * from './table';
export * from './policy';
export * from './lifecycle';
export * from './semantics';
