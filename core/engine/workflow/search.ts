// GET /automation-studio/workflows: the stored workflow documents as the service's Automation
// Studio answers a page of them (`{ items, total }`, each with its `_id`), for the service's clients
// (its MCP server finds a workflow's inputSchema by `equals[name]`; its guides read
// `equals[_id]=…&include=name,inputSchema` and page by 100: the service answers at most 100 a page).
import { ConsoleError } from '../../errors';
import type { Store } from '../../store/port';
import { queryPage, type ListQueryOf } from '../../values/list-query';
import { listWorkflowDocsWithIds } from './repository';

/** The most workflows one page holds, whatever `limit` asks, as the service answers. */
export const WORKFLOWS_PAGE_MAX = 100;

export interface WorkflowSearch extends ListQueryOf {
  include?: string;
  exclude?: string;
}

const fieldsOf = (list: string | undefined) => (list ?? '').split(',').map((f) => f.trim()).filter(Boolean);

/** `include` keeps the fields it names (and `_id` unless `exclude=_id`); `exclude` drops those it names. */
function projection(query: WorkflowSearch): (doc: Record<string, unknown>) => Record<string, unknown> {
  const include = fieldsOf(query.include);
  const exclude = fieldsOf(query.exclude);
  if (include.length && exclude.some((f) => f !== '_id')) {
    throw new ConsoleError('bad_input', 'query.exclude: with include, only exclude=_id may be given (include names the fields to answer)', { issues: [{ path: 'query.exclude', message: 'only _id with include' }] });
  }
  if (include.length) {
    const kept = exclude.includes('_id') ? include : ['_id', ...include];
    return (doc) => Object.fromEntries(kept.filter((f) => f in doc).map((f) => [f, doc[f]]));
  }
  if (exclude.length) return (doc) => Object.fromEntries(Object.entries(doc).filter(([f]) => !exclude.includes(f)));
  return (doc) => doc;
}

export async function searchWorkflows(store: Store, query: WorkflowSearch): Promise<{ items: Record<string, unknown>[]; total: number }> {
  const project = projection(query);
  const limit = query.limit === 0 ? WORKFLOWS_PAGE_MAX : Math.min(query.limit, WORKFLOWS_PAGE_MAX);
  const { items, total } = queryPage(await listWorkflowDocsWithIds(store), { ...query, limit });
  return { items: items.map(project), total };
}
