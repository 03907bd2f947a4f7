// GET /automation-studio/workflows: the stored workflow documents as the service's Automation
// Studio answers a page of them (`{ items, total, skip, limit, count }`, each with its `_id`), for the service's clients
// (its MCP server finds a workflow's inputSchema by `equals[name]`; its guides read
// `equals[_id]=…&include=name,inputSchema` and page by 100: the service answers at most 100 a page).
import type { Store } from '../../store/port';
import { projectionOf, queryPage, type ListQueryOf } from '../../values/list-query';
import { listWorkflowDocsWithIds } from './repository';

/** The most workflows one page holds, whatever `limit` asks, as the service answers. */
export const WORKFLOWS_PAGE_MAX = 100;

export type WorkflowSearch = ListQueryOf;

export async function searchWorkflows(store: Store, query: WorkflowSearch): Promise<{ items: Record<string, unknown>[]; total: number; skip: number; limit: number; count: number }> {
  const project = projectionOf(query);
  const limit = query.limit === 0 ? WORKFLOWS_PAGE_MAX : Math.min(query.limit, WORKFLOWS_PAGE_MAX);
  const { items, total } = queryPage(await listWorkflowDocsWithIds(store), { ...query, limit });
  // The page as the service answers it: the limit it applied, and how many this page holds.
  return { items: items.map(project), total, skip: query.skip, limit, count: items.length };
}
