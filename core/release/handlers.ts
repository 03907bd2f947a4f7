// Handlers of the release operations.
import type { HostState } from '../host/state';
import { checkPolicy, deprecationTable, lifecycleAt, MIN_DEPRECATION_CYCLES, RUNNING_RELEASE } from './index';

export function releaseTableAnswer() {
  return {
    running: RUNNING_RELEASE,
    policy: `An API is announced as deprecated at least ${MIN_DEPRECATION_CYCLES} release cycles before it is removed (two feature releases a year: year.1 and year.2).`,
    rows: deprecationTable.map((row) => ({ ...row, lifecycle: lifecycleAt(row, RUNNING_RELEASE) })),
    findings: checkPolicy(deprecationTable),
  };
}

export function releaseHandlers(_state: HostState) {
  return {
    'release.table': async () => releaseTableAnswer(),
  };
}
