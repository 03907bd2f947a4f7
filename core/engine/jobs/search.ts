// The store filter of the search API's query forms (core/contract/search-forms.ts). As the
// service's, a form's value is read as its field's type: the times of a job (`metrics.start_time`,
// `metrics.end_time`, `last_updated`) take ms since the epoch or an ISO date; `equals` on any other
// field compares the string given; starts-with, ends-with and contains match the string as it is
// (no pattern: its special characters are escaped).
import { ConsoleError } from '../../errors';
import { searchForms, type SearchForm } from '../../contract/search-forms';
import type { Filter } from '../../store/port';

const TIME_FIELDS: readonly string[] = ['metrics.start_time', 'metrics.end_time', 'last_updated'];
const RANGE: Record<string, string> = { gt: '$gt', gte: '$gte', lt: '$lt', lte: '$lte' };

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function typed(form: SearchForm, value: string): string | number {
  if (TIME_FIELDS.includes(form.field)) {
    const ms = /^-?\d+$/.test(value) ? Number(value) : Date.parse(value);
    if (!Number.isFinite(ms)) throw new ConsoleError('bad_input', `${form.key}: "${value}" is not a time: give ms since the epoch or an ISO date (2021-11-18T23:59:59Z)`, { issues: [{ path: `query.${form.key}`, message: 'not a time' }] });
    return ms;
  }
  // A range on another field compares numbers when the value is one.
  if (RANGE[form.operator] && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  return value;
}

function condition(form: SearchForm): Filter {
  const [first] = form.values;
  const value = first ?? '';
  switch (form.operator) {
    case 'equals':
      return { [form.field]: typed(form, value) };
    case 'contains':
      return { [form.field]: { $regex: escape(value) } };
    case 'starts-with':
      return { [form.field]: { $regex: `^${escape(value)}` } };
    case 'ends-with':
      return { [form.field]: { $regex: `${escape(value)}$` } };
    case 'in':
      return { [form.field]: { $in: form.values.map((v) => typed(form, v)) } };
    case 'not-in':
      return { [form.field]: { $nin: form.values.map((v) => typed(form, v)) } };
    default:
      return { [form.field]: { [RANGE[form.operator]!]: typed(form, value) } };
  }
}

/** The filter of a query's search forms (every one must hold), or undefined when it has none. */
export function searchFilter(query: Record<string, unknown>): Filter | undefined {
  const { forms, problems } = searchForms(query);
  const [problem] = problems;
  if (problem) throw new ConsoleError('bad_input', `${problem.key}: ${problem.message}`, { issues: problems.map((p) => ({ path: `query.${p.key}`, message: p.message })) });
  if (forms.length === 0) return undefined;
  const parts = forms.map(condition);
  return parts.length === 1 ? parts[0] : { $and: parts };
}
