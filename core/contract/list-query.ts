// The service's list query, as its list routes take it (Operations Manager's automations, triggers and
// tasks; Automation Studio's workflows): `equals` / `contains` / `starts-with` on the field that
// `equalsField` / ... names, the newer spelling `startsWith` beside `starts-with`, and `order` 1 or -1.
// The bracket forms (`equals[name]=X`) pass as the extra keys of a loose object; core/values/list-query.ts
// reads them all. Browser-safe: zod only.
import { z } from 'zod';

const WHOLE = 'expected a whole number ≥ 0';
/** A whole number from 0 up, from a query's text (skip, limit). */
export const WholeNumber = z.coerce.number({ message: WHOLE }).int(WHOLE).min(0, WHOLE);

/** 1 ascending, -1 descending. */
export const SortOrder = z.coerce.number().pipe(z.union([z.literal(1), z.literal(-1)], { error: 'must be 1 or -1' }));

/**
 * The page and the projection of Automation Studio's list routes (projects, templates, workflows), to
 * spread into a route's query object: limit (25 unless given, 0 for all), skip, and `include` or
 * `exclude` a comma-separated list of fields.
 */
export const StudioPage = {
  limit: WholeNumber.default(25),
  skip: WholeNumber.default(0),
  include: z.string().optional(),
  exclude: z.string().optional(),
};

/** The service's `exclude-project-members` (the console keeps no project members: it changes nothing). */
export const ExcludeProjectMembers = z.enum(['true', 'false'], { error: 'must be true or false' }).optional();

/** The filter fields, to spread into a route's query object. */
export const ListFilters = {
  equals: z.string().optional(),
  equalsField: z.string().optional(),
  contains: z.string().optional(),
  containsField: z.string().optional(),
  'starts-with': z.string().optional(),
  'starts-withField': z.string().optional(),
  /** The newer spelling of starts-with, as the vendor's guides write it. */
  startsWith: z.string().optional(),
  startsWithField: z.string().optional(),
};
