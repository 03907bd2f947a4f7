// The Operations Manager search API's query forms (GET /operations-manager/jobs): an operator and
// a dotted field in brackets, `equals[name]=Deploy`, `starts-with[name]=@project`,
// `in[status]=running,error`, `gt[metrics.start_time]=2021-11-18T23:59:59`. Read from the query's
// keys here, each key checked (a bad one answers 400 naming it); the store's filter is built by
// the engine (core/engine/jobs/search.ts). Browser-safe: zod only.
import { z } from 'zod';

export const SEARCH_OPERATORS = ['equals', 'contains', 'starts-with', 'ends-with', 'in', 'not-in', 'gt', 'gte', 'lt', 'lte'] as const;
export type SearchOperator = (typeof SEARCH_OPERATORS)[number];

export interface SearchForm {
  /** The query key as given: `equals[name]`. */
  key: string;
  operator: SearchOperator;
  /** A dotted field of the document: `metrics.start_time`. */
  field: string;
  /** The values given (a key repeated gives several; `in`/`not-in` also split them on commas). */
  values: string[];
}

const FORM = /^([A-Za-z-]+)\[(.*)\]$/;
const FIELD = /^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*$/;
const MAX_VALUE = 500;

/** A query form's value: one string, or the strings of a key given more than once (checked by searchForms). */
export const SearchValue = z.unknown();

const isOperator = (name: string): name is SearchOperator => (SEARCH_OPERATORS as readonly string[]).includes(name);

/** The query forms among a query's keys, and what is wrong with any of them (by key). */
export function searchForms(query: Record<string, unknown>): { forms: SearchForm[]; problems: { key: string; message: string }[] } {
  const forms: SearchForm[] = [];
  const problems: { key: string; message: string }[] = [];
  for (const [key, raw] of Object.entries(query)) {
    const match = FORM.exec(key);
    if (!match) continue;
    const [, operator, field] = match as unknown as [string, string, string];
    if (!isOperator(operator)) {
      problems.push({ key, message: `unknown query operator "${operator}"; the search API's are ${SEARCH_OPERATORS.join(', ')}` });
      continue;
    }
    if (!FIELD.test(field)) {
      problems.push({ key, message: `"${field}" is not a field: a dotted path of letters, digits, _ and - (metrics.start_time)` });
      continue;
    }
    const given = Array.isArray(raw) ? raw : [raw];
    if (!given.every((v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')) {
      problems.push({ key, message: 'must be a string, or strings for a key given more than once' });
      continue;
    }
    const texts = given.map(String);
    const values = operator === 'in' || operator === 'not-in' ? texts.flatMap((v) => v.split(',')).filter((v) => v !== '') : texts;
    if (values.length === 0) problems.push({ key, message: 'give at least one value' });
    else if (values.some((v) => v.length > MAX_VALUE)) problems.push({ key, message: `a value longer than ${MAX_VALUE} characters` });
    else forms.push({ key, operator, field, values });
  }
  return { forms, problems };
}

/** Adds an issue per bad query form, at its key, for a query schema's superRefine. */
export function checkSearchForms(query: Record<string, unknown>, ctx: z.RefinementCtx) {
  for (const problem of searchForms(query).problems) ctx.addIssue({ code: 'custom', path: [problem.key], message: problem.message });
}
