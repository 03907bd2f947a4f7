// The run options every drill takes, lab or sites: how many jobs of load, how the active site
// fails (the choices differ by kind), failback, and whether failover persists processTasksOnStart.
import { useState } from 'react';

export interface RunOptions<Failure extends string> {
  jobs: string;
  failure: Failure;
  failback: boolean;
  persist: boolean;
}

export function useRunOptions<Failure extends string>(failure: Failure) {
  return useState<RunOptions<Failure>>({ jobs: '20', failure, failback: true, persist: false });
}

/** The drill operations' fields for these options. */
export function runOptionsBody<Failure extends string>(options: RunOptions<Failure>) {
  return { jobs: Number(options.jobs), failure: options.failure, failback: options.failback, persistProcessTasksOnStart: options.persist };
}

export function RunOptionsFields<Failure extends string>({
  value,
  onChange,
  failures,
}: {
  value: RunOptions<Failure>;
  onChange: (next: RunOptions<Failure>) => void;
  failures: { value: Failure; label: string }[];
}) {
  return (
    <>
      <label>
        Jobs <input type="number" min={1} max={5000} value={value.jobs} onChange={(e) => onChange({ ...value, jobs: e.target.value })} />
      </label>
      <label>
        Failure{' '}
        <select value={value.failure} onChange={(e) => onChange({ ...value, failure: e.target.value as Failure })}>
          {failures.map((f) => (
            <option key={f.value} value={f.value}>
              {f.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        <input type="checkbox" checked={value.failback} onChange={(e) => onChange({ ...value, failback: e.target.checked })} /> Fail back afterwards
      </label>
      <label>
        <input type="checkbox" checked={value.persist} onChange={(e) => onChange({ ...value, persist: e.target.checked })} /> Persist processTasksOnStart: true on the standby at failover
      </label>
    </>
  );
}
