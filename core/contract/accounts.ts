// The service's accounts (reference: GET /authorization/accounts and /authorization/accounts/:accountId),
// as its clients read them: the vendor's MCP server names the user of a job it started by finding the
// account whose `_id` is the job's `metrics.user`. Browser-safe: zod only.
import { z } from 'zod';
import { defineOperations } from './operation';
import { RecordId } from './ids';
import { ListFilters, SortOrder } from './list-query';

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
    summary: "The console's accounts, as the service lists its own: the desktop operator, who starts its jobs (a job's metrics.user is this account's _id), and admin, who logs in over HTTP; the service's list filters (equals, contains, starts-with on a field, `username` unless named), sort (`username` unless named) and order",
    query: z.looseObject({ skip: whole(1_000_000).default(0), limit: whole(1000).default(25), sort: z.string().optional(), order: SortOrder.optional(), ...ListFilters }),
    output: z.object({ results: z.array(Account), total: z.number() }),
  },
  'accounts.whoami': {
    method: 'GET',
    path: '/whoami',
    summary:
      "Who is calling, as the service answers it: `admin` over HTTP (the console's token logs in as admin), the desktop operator in the console's window; the console has no groups or roles, so both lists are empty",
    query: z.looseObject({ roles: z.enum(['names', 'ids'], { error: 'must be names or ids' }).optional() }),
    output: z.object({ id: z.string(), provenance: z.string(), username: z.string(), firstname: z.string(), groups: z.array(z.object({ id: z.string(), provenance: z.string(), name: z.string() })), roles: z.array(z.string()) }),
  },
  'accounts.groups': {
    method: 'GET',
    path: '/authorization/groups',
    summary: "The service's groups, `{ results, total }`: none, since the console's accounts belong to no group (its one operator holds every right)",
    query: z.looseObject({ skip: whole(1_000_000).default(0), limit: whole(1000).default(25) }),
    output: z.object({ results: z.array(z.looseObject({ _id: z.string(), name: z.string() })), total: z.number() }),
  },
  'accounts.group': {
    method: 'GET',
    path: '/authorization/groups/:groupId',
    summary: 'One group by its _id: always a 404 naming it, since the console keeps no group',
    params: z.object({ groupId: RecordId }),
    output: z.looseObject({ _id: z.string(), name: z.string() }),
  },
  'accounts.get': {
    method: 'GET',
    path: '/authorization/accounts/:accountId',
    summary: 'One account by its _id (404 naming it when the console has none of that id)',
    params: z.object({ accountId: RecordId }),
    output: Account,
  },
});
