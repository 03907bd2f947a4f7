// The automations' and triggers' documents as the service keeps them: one `automations`
// collection and one `triggers` collection (a trigger names its automation by `actionId`),
// ids shaped like the service's ObjectIds, JSON Schema's `$`-keys escaped for the store,
// and the service's list query (`equals` / `contains` / `starts-with` on a named field).
import { ObjectId } from 'bson';
import type { z } from 'zod';
import type { ListQuery } from '../contract/automations';
import { ConsoleError } from '../errors';
import { escapeKeys, unescapeKeys } from '../store/documents';
import { queryPage } from '../values/list-query';
import type { Doc } from '../store/port';

export const AUTOMATIONS_COLLECTION = 'automations';
export const TRIGGERS_COLLECTION = 'triggers';

export type Obj = Record<string, unknown>;
export const isObject = (value: unknown): value is Obj => value !== null && typeof value === 'object' && !Array.isArray(value);

export const newId = () => new ObjectId().toHexString();

/** A document for the store: `$`-keys (a schema's `$id`, `$ref`) escaped. */
export const toStored = (doc: Obj): Doc => escapeKeys(doc);
/** A stored document as the service answers it. */
export const fromStored = <T>(doc: Doc): T => unescapeKeys(doc) as T;

/**
 * A document checked against the service's shape (`Automation`, `Trigger`) before it is stored or
 * answered: what does not fit is named, `where` saying whose it is (`body.automations.0`, a stored one).
 */
export function shaped<S extends z.ZodType>(schema: S, value: unknown, where: string, code: 'bad_input' | 'conflict' = 'bad_input'): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({ path: [where, ...issue.path.map(String)].filter((part) => part !== '').join('.'), message: issue.message }));
  throw new ConsoleError(code, issues.map((i) => `${i.path}: ${i.message}`).join('; '), { issues });
}

/** The service's list query over documents (the collections are small: an operator's automations). */
export function listPage<T extends Obj>(docs: T[], query: ListQuery): { data: T[]; metadata: { skip: number; limit: number; total: number } } {
  const { items, total } = queryPage(docs, query);
  return { data: items, metadata: { skip: query.skip, limit: query.limit, total } };
}
