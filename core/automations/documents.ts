// The automations' and triggers' documents as the service keeps them: one `automations`
// collection and one `triggers` collection (a trigger names its automation by `actionId`),
// ids shaped like the service's ObjectIds, JSON Schema's `$`-keys escaped for the store,
// and the service's list query (`equals` / `contains` / `starts-with` on a named field).
import { ObjectId } from 'bson';
import type { z } from 'zod';
import type { ListQuery } from '../contract/automations';
import { ConsoleError } from '../errors';
import { escapeKeys, unescapeKeys } from '../store/documents';
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

function fieldOf(doc: Obj, path: string): unknown {
  let value: unknown = doc;
  for (const part of path.split('.')) value = isObject(value) ? value[part] : undefined;
  return value;
}

const text = (value: unknown) => (value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value));

/** The service's list query over documents (the collections are small: an operator's automations). */
export function listPage<T extends Obj>(docs: T[], query: ListQuery): { data: T[]; metadata: { skip: number; limit: number; total: number } } {
  let matching = docs;
  // The bracket forms: `equals[name]=X`, `contains[description]=y`, `starts-with[name]=Z`.
  for (const [key, value] of Object.entries(query)) {
    const bracket = /^(equals|contains|starts-with)\[(.+)\]$/.exec(key);
    if (!bracket || typeof value !== 'string') continue;
    const [, form, field = 'name'] = bracket;
    if (form === 'equals') matching = matching.filter((d) => text(fieldOf(d, field)) === value);
    else if (form === 'contains') matching = matching.filter((d) => text(fieldOf(d, field)).toLowerCase().includes(value.toLowerCase()));
    else matching = matching.filter((d) => text(fieldOf(d, field)).startsWith(value));
  }
  if (query.enabled !== undefined) matching = matching.filter((d) => d.enabled === (query.enabled === 'true'));
  if (query.equals !== undefined) matching = matching.filter((d) => text(fieldOf(d, query.equalsField ?? 'name')) === query.equals);
  if (query.contains !== undefined) {
    const needle = query.contains.toLowerCase();
    matching = matching.filter((d) => text(fieldOf(d, query.containsField ?? 'name')).toLowerCase().includes(needle));
  }
  const prefix = query['starts-with'];
  if (prefix !== undefined) matching = matching.filter((d) => text(fieldOf(d, query['starts-withField'] ?? 'name')).startsWith(prefix));
  const sort = query.sort ?? 'name';
  const order = query.order ?? 1;
  const sorted = [...matching].sort((a, b) => text(fieldOf(a, sort)).localeCompare(text(fieldOf(b, sort))) * order);
  // limit 0 is "no limit", as the service reads it.
  const page = query.limit === 0 ? sorted.slice(query.skip) : sorted.slice(query.skip, query.skip + query.limit);
  return { data: page, metadata: { skip: query.skip, limit: query.limit, total: matching.length } };
}
