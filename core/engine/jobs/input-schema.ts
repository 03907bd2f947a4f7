// Checks a job's variables against its workflow's `inputSchema` (a JSON Schema
// subset: type, properties, required, enum, const, items, minimum/maximum,
// minLength/maxLength, pattern, additionalProperties false). Each problem names
// the variable's path.

import { isRecord } from './guards';

type Schema = Record<string, unknown>;

/** The strings of a schema keyword that holds one or a list of them (`type`, `required`). */
const strings = (value: unknown): string[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((v): v is string => typeof v === 'string');

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function matchesType(value: unknown, type: string): boolean {
  const actual = typeOf(value);
  if (type === 'number') return actual === 'number' || actual === 'integer';
  return actual === type;
}

export function checkAgainstSchema(value: unknown, schema: Schema, path: string, problems: string[]): void {
  if (!schema || typeof schema !== 'object') return;
  if (value === undefined) return;
  const types = strings(schema.type);
  if (types.length && !types.some((t) => matchesType(value, t))) {
    problems.push(`${path} must be ${types.join(' or ')}, got ${typeOf(value)}`);
    return;
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => JSON.stringify(option) === JSON.stringify(value))) {
    problems.push(`${path} must be one of ${schema.enum.map((o) => JSON.stringify(o)).join(', ')}`);
  }
  if ('const' in schema && JSON.stringify(schema.const) !== JSON.stringify(value)) problems.push(`${path} must be ${JSON.stringify(schema.const)}`);
  if (typeof value === 'string') {
    if (typeof schema.minLength === 'number' && value.length < schema.minLength) problems.push(`${path} must be at least ${schema.minLength} characters`);
    if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) problems.push(`${path} must be at most ${schema.maxLength} characters`);
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern).test(value)) problems.push(`${path} must match ${schema.pattern}`);
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) problems.push(`${path} must be >= ${schema.minimum}`);
    if (typeof schema.maximum === 'number' && value > schema.maximum) problems.push(`${path} must be <= ${schema.maximum}`);
  }
  const items = schema.items;
  if (Array.isArray(value) && isRecord(items)) {
    value.forEach((item, index) => checkAgainstSchema(item, items, `${path}[${index}]`, problems));
  }
  if (isRecord(value)) {
    const properties = isRecord(schema.properties) ? schema.properties : {};
    for (const name of strings(schema.required)) {
      if (value[name] === undefined) problems.push(`${path}.${name} is required`);
    }
    for (const [name, item] of Object.entries(value)) {
      const property = properties[name];
      if (isRecord(property)) checkAgainstSchema(item, property, `${path}.${name}`, problems);
      else if (schema.additionalProperties === false) problems.push(`${path}.${name} is not allowed by the workflow's inputSchema`);
    }
  }
}

/** Problems of the variables against the schema; empty when they fit. */
export function checkVariables(variables: Record<string, unknown>, schema: Schema | undefined): string[] {
  if (!schema) return [];
  const problems: string[] = [];
  checkAgainstSchema(variables, { type: 'object', ...schema }, 'variables', problems);
  return problems;
}
