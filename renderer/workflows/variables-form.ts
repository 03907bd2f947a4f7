// The fields of a job's variables form, generated from a workflow's inputSchema
// (JSON Schema), and the variables the filled form stands for.

export type FieldKind = 'text' | 'number' | 'integer' | 'boolean' | 'choice' | 'json' | 'union';

export interface Field {
  name: string;
  kind: FieldKind;
  label: string;
  required: boolean;
  description?: string;
  choices?: unknown[];
  /** A union's types (`["array", "object", "string"]`, null left out): what its text may be. */
  types?: string[];
}

type Schema = Record<string, unknown>;

/** Variables the service gives every job itself (the job's id, who started it): never asked for. */
const SUPPLIED_BY_THE_SERVICE = new Set(['_id', 'initiator']);

/** The fields of an object schema with properties, or null when a JSON editor should be used instead. */
export function fieldsOf(inputSchema: Schema | undefined): Field[] | null {
  const properties = inputSchema?.properties;
  if (!properties || typeof properties !== 'object' || Object.keys(properties).length === 0) return null;
  const required = new Set(Array.isArray(inputSchema.required) ? (inputSchema.required as string[]) : []);
  const asked = Object.entries(properties as Record<string, Schema>).filter(([name]) => !SUPPLIED_BY_THE_SERVICE.has(name));
  if (asked.length === 0) return null;
  return asked.map(([name, schema]) => {
    const types = Array.isArray(schema.type) ? schema.type.filter((t): t is string => typeof t === 'string' && t !== 'null') : [];
    const type = Array.isArray(schema.type) ? (types.length === 1 ? types[0] : undefined) : schema.type;
    let kind: FieldKind = 'json';
    if (Array.isArray(schema.enum)) kind = 'choice';
    else if (types.length > 1) kind = 'union';
    else if (type === 'string') kind = 'text';
    else if (type === 'number') kind = 'number';
    else if (type === 'integer') kind = 'integer';
    else if (type === 'boolean') kind = 'boolean';
    return {
      name,
      kind,
      label: typeof schema.title === 'string' ? schema.title : name,
      required: required.has(name),
      description: typeof schema.description === 'string' ? schema.description : undefined,
      choices: Array.isArray(schema.enum) ? schema.enum : undefined,
      ...(types.length > 1 ? { types } : {}),
    };
  });
}

/**
 * The variables the form's raw values stand for. An empty field is left out
 * (an absent key: the variable is undefined). Returns the errors by field name.
 */
export function variablesOf(fields: Field[], raw: Record<string, string>): { variables: Record<string, unknown>; errors: Record<string, string> } {
  const variables: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const text = raw[field.name] ?? '';
    if (text.trim() === '') {
      if (field.required) errors[field.name] = `${field.label} is required`;
      continue;
    }
    switch (field.kind) {
      case 'text':
        variables[field.name] = text;
        break;
      case 'number':
      case 'integer': {
        const n = Number(text);
        if (Number.isNaN(n) || (field.kind === 'integer' && !Number.isInteger(n))) errors[field.name] = `${field.label} must be ${field.kind === 'integer' ? 'a whole number' : 'a number'}`;
        else variables[field.name] = n;
        break;
      }
      case 'boolean':
        variables[field.name] = text === 'true';
        break;
      case 'choice':
        variables[field.name] = JSON.parse(text);
        break;
      case 'union': {
        const value = unionValue(text, field.types ?? []);
        if (value.ok) variables[field.name] = value.value;
        else errors[field.name] = `${field.label} must be ${(field.types ?? []).join(', ')} (as JSON)`;
        break;
      }
      case 'json':
        try {
          variables[field.name] = JSON.parse(text);
        } catch (error) {
          errors[field.name] = `${field.label} is not JSON: ${(error as Error).message}`;
        }
        break;
    }
  }
  return { variables, errors };
}

const jsonType = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value);

/** A union's value: the JSON the text is, when its type is one the union takes; else the text itself, when it takes a string. */
function unionValue(text: string, types: string[]): { ok: true; value: unknown } | { ok: false } {
  try {
    const parsed: unknown = JSON.parse(text);
    const type = jsonType(parsed);
    if (types.includes(type) || (type === 'integer' && types.includes('number'))) return { ok: true, value: parsed };
  } catch {
    // Not JSON: a plain string, when the union takes one.
  }
  return types.includes('string') ? { ok: true, value: text } : { ok: false };
}
