// The query parameters of the health lists (reference: contains, containsField, equals,
// equalsField, startsWith, startsWithField, skip, limit, sort, order) applied to health items.
import type { HealthField, HealthItem, HealthList, HealthQuery, HealthSortField } from '../contract/health';
import { ConsoleError } from '../errors';

function fieldValue(item: HealthItem, field: HealthField | HealthSortField): string | number {
  switch (field) {
    case 'name':
      return item.id;
    case 'connection':
      return item.connection?.state ?? '';
    case 'uptime':
      return item.uptime;
    case 'pid':
      return item.pid;
    case 'restartCount':
      return item.restartCount ?? 0;
    default:
      return String(item[field] ?? '');
  }
}

type Test = (value: string, wanted: string) => boolean;

const FILTERS: [valueKey: 'contains' | 'equals' | 'startsWith', test: Test][] = [
  ['contains', (value, wanted) => value.toLowerCase().includes(wanted.toLowerCase())],
  ['equals', (value, wanted) => value === wanted],
  ['startsWith', (value, wanted) => value.toLowerCase().startsWith(wanted.toLowerCase())],
];

export function applyHealthQuery(items: HealthItem[], query: HealthQuery): HealthList {
  let selected = items;
  for (const [key, test] of FILTERS) {
    const wanted = query[key];
    const field = query[`${key}Field`];
    if (field !== undefined && wanted === undefined) {
      throw new ConsoleError('bad_input', `query.${key}Field: given without ${key} (the value to match)`, {
        issues: [{ path: `query.${key}Field`, message: `given without ${key}` }],
      });
    }
    if (wanted === undefined) continue;
    const on = field ?? 'name';
    selected = selected.filter((item) => test(String(fieldValue(item, on)), wanted));
  }
  const direction = query.order;
  const sorted = [...selected].sort((a, b) => {
    const x = fieldValue(a, query.sort);
    const y = fieldValue(b, query.sort);
    const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return (order || a.id.localeCompare(b.id)) * direction;
  });
  return { results: sorted.slice(query.skip, query.skip + query.limit), total: selected.length };
}
