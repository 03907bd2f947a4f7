// The service's accounts (reference: GET /authorization/accounts and /authorization/accounts/:accountId),
// as its clients read them: the vendor's MCP server names the user of a job it started by finding the
// account whose `_id` is the job's `metrics.user`. Browser-safe: zod only.
import { z } from 'zod';
import { defineOperations } from './operation';
import { RecordId } from './ids';

export const Account = z.object({
  _id: z.string(),
  provenance: z.string(),
  username: z.string(),
  firstname: z.string(),
  memberOf: z.array(z.object({ groupId: z.string(), aaaManaged: z.boolean() })),
  assignedRoles: z.array(z.object({ roleId: z.string() })),
  inactive: z.boolean(),
  isServiceAccount: z.boolean(),
});
export type Account = z.infer<typeof Account>;

const whole = (max: number) =>
  z.coerce
    .number({ message: `expected a whole number from 0 to ${max}` })
    .int(`expected a whole number from 0 to ${max}`)
    .min(0, `expected a whole number from 0 to ${max}`)
    .max(max, `expected a whole number from 0 to ${max}`);

export const accountsOperations = defineOperations({
  'accounts.list': {
    method: 'GET',
    path: '/authorization/accounts',
    summary: "The console's accounts, as the service lists its own: the desktop operator, who starts its jobs (a job's metrics.user is this account's _id), and admin, who logs in over HTTP",
    query: z.looseObject({ skip: whole(1_000_000).default(0), limit: whole(1000).default(25) }),
    output: z.object({ results: z.array(Account), total: z.number() }),
  },
  'accounts.get': {
    method: 'GET',
    path: '/authorization/accounts/:accountId',
    summary: 'One account by its _id (404 naming it when the console has none of that id)',
    params: z.object({ accountId: RecordId }),
    output: Account,
  },
});
