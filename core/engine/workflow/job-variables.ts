// What the service puts into a job's variables when the job starts, beside the
// variables it was given: `_id`, the job's own id, and `initiator`, who started it.
// A workflow's inputSchema may require them (many real ones require `_id`) and
// `$var.job._id` reads them, so they are there before the inputSchema is checked,
// for a job started over the API and for a child job alike. (The service's own sample of a
// job's variables, GET /operations-manager/jobs/:id, is `{ "initiator": "...", "_id": "..." }`:
// docs.itential.com/docs/automation-get-result; spec/reference.md names `_id`.)

export interface JobIdentity {
  /** The job's id. */
  id: string;
  /** Who started the job (a child job: whoever started its parent). */
  initiator: string;
}

/** The variables the service supplies itself; they win over a given variable of the same name. */
export const SERVICE_JOB_VARIABLES = ['_id', 'initiator'] as const;

/** The job's variables at start: those given, with the service's own over them. */
export function jobStartVariables(given: Record<string, unknown>, identity: JobIdentity): Record<string, unknown> {
  return { ...given, _id: identity.id, initiator: identity.initiator };
}
