// The console's accounts, in the service's account shape. The console is one person's desktop app:
// its jobs are started by the desktop operator (a job's `metrics.user` is that name), and HTTP
// clients log in as `admin` with the console's token (core/http/logins). Each account's `_id` is
// its name, the value the jobs' `metrics.user` holds, so a client that resolves a job's user through
// GET /authorization/accounts (the vendor's MCP server does) finds it.
import type { Account } from '../contract/accounts';
import type { Handlers } from '../dispatch/dispatch';
import { ConsoleError } from '../errors';
import { queryPage } from '../values/list-query';

export interface AccountsDeps {
  /** The desktop operator: who the console's jobs are started by. */
  operator(): string;
  /** The account HTTP clients log in as. */
  adminUser: string;
}

const account = (username: string, provenance: string): Account => ({
  _id: username,
  provenance,
  username,
  firstname: username,
  memberOf: [],
  assignedRoles: [],
  inactive: false,
  isServiceAccount: false,
});

/** The accounts, sorted by username as the service sorts its list by default; the operator once when it is also admin. */
export function consoleAccounts(deps: AccountsDeps): Account[] {
  const operator = deps.operator();
  const accounts = [account(operator, 'Console')];
  if (operator !== deps.adminUser) accounts.push(account(deps.adminUser, 'Local AAA'));
  return accounts.sort((a, b) => (a.username < b.username ? -1 : a.username > b.username ? 1 : 0));
}

export function accountsHandlers(deps: AccountsDeps): Pick<Handlers, 'accounts.list' | 'accounts.get' | 'accounts.whoami' | 'accounts.groups' | 'accounts.group'> {
  return {
    'accounts.list': ({ query }) => {
      // The service's list query (a limit of 0 is no limit, as MongoDB reads it), on `username` unless a field is named.
      const field = (named: string | undefined) => named ?? 'username';
      const on = { sort: field(query.sort), equalsField: field(query.equalsField), containsField: field(query.containsField), startsWithField: field(query.startsWithField ?? query['starts-withField']) };
      const { items, total } = queryPage(consoleAccounts(deps), { ...query, ...on, 'starts-withField': on.startsWithField });
      return { results: items, total };
    },
    // The console's accounts belong to no group: its operator holds every right.
    'accounts.groups': () => ({ results: [], total: 0 }),
    'accounts.group': ({ params }) => {
      throw new ConsoleError('not_found', `no group has the _id "${params.groupId}": the console keeps no groups (its accounts belong to none)`);
    },
    'accounts.whoami': (_input, ctx) => {
      // HTTP clients log in as admin with the console's token; the console's own window is its operator.
      const me = ctx.transport === 'http' ? deps.adminUser : deps.operator();
      const found = consoleAccounts(deps).find((a) => a.username === me) ?? account(me, 'Console');
      return { id: found._id, provenance: found.provenance, username: found.username, firstname: found.firstname, groups: [], roles: [] };
    },
    'accounts.get': ({ params }) => {
      const found = consoleAccounts(deps).find((a) => a._id === params.accountId);
      if (!found) throw new ConsoleError('not_found', `no account has the _id "${params.accountId}" (the console's accounts: ${consoleAccounts(deps).map((a) => a._id).join(', ')})`);
      return found;
    },
  };
}
