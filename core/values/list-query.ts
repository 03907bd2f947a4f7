// The service's list query over documents, as its list routes read it (Operations Manager's
// automations and triggers, Automation Studio's workflows): `equals` / `contains` / `starts-with`
// on the field `equalsField` / ... names (`name` when none), or in the bracket form
// (`equals[name]=X`, `contains[description]=y`, `starts-with[name]=Z`), `enabled`, sorted by a
// field in an order, then paged. `startsWith` / `startsWithField` are read as `starts-with`'s newer spelling. The collections it reads are small (an operator's documents).

import { ConsoleError } from '../errors';

type Obj = Record<string, unknown>;

export interface ListQueryOf {
  equals?: string;
  equalsField?: string;
  contains?: string;
  containsField?: string;
  'starts-with'?: string;
  'starts-withField'?: string;
  startsWith?: string;
  startsWithField?: string;
  enabled?: 'true' | 'false';
  sort?: string;
  order?: 1 | -1;
  skip: number;
  /** 0 is no limit. */
  limit: number;
  /** Comma-separated fields to answer (with `_id` unless `exclude=_id`), or to leave out. */
  include?: string;
  exclude?: string;
  [bracket: string]: unknown;
}

const isObject = (value: unknown): value is Obj => value !== null && typeof value === 'object' && !Array.isArray(value);

function fieldOf(doc: Obj, path: string): unknown {
  let value: unknown = doc;
  for (const part of path.split('.')) value = isObject(value) ? value[part] : undefined;
  return value;
}

const text = (value: unknown) => (value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value));

/** The documents the query matches, sorted, and the page of them it asks for, with the number matched. */
export function queryPage<T extends Obj>(docs: T[], query: ListQueryOf): { items: T[]; total: number } {
  let matching = docs;
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
  const prefix = query['starts-with'] ?? query.startsWith;
  const prefixField = query['starts-withField'] ?? query.startsWithField ?? 'name';
  if (prefix !== undefined) matching = matching.filter((d) => text(fieldOf(d, prefixField)).startsWith(prefix));
  const sort = query.sort ?? 'name';
  const order = query.order ?? 1;
  const sorted = [...matching].sort((a, b) => text(fieldOf(a, sort)).localeCompare(text(fieldOf(b, sort))) * order);
  const items = query.limit === 0 ? sorted.slice(query.skip) : sorted.slice(query.skip, query.skip + query.limit);
  return { items, total: matching.length };
}

const fieldsOf = (list: string | undefined) => (list ?? '').split(',').map((f) => f.trim()).filter(Boolean);

/**
 * The service's projection of a list's documents: `include` keeps the fields it names (and `_id` unless
 * `exclude=_id`), `exclude` drops those it names; with include, only `exclude=_id` may be given (a 400 naming exclude).
 */
export function projectionOf(query: Pick<ListQueryOf, 'include' | 'exclude'>): (doc: Obj) => Obj {
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
