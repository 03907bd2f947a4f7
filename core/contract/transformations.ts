// Transformations: JST documents (JSON Schema Transformations) of the service, in
// its own shape, and the operations that store, list and run them. Browser-safe: zod only.
import { z } from 'zod';
import { RecordId } from './ids';
import { defineOperations } from './operation';

/** A document's `_id` as the service exports it (24 hex digits), or any record id a script chose. */
export const TransformationId = RecordId;

const Schema = z.looseObject({ $id: z.string({ error: 'each incoming and outgoing schema needs its $id (the variable name)' }) });

export const TransformationStep = z.looseObject({
  id: z.union([z.number(), z.string()], { error: 'each step needs an id' }),
  type: z.string({ error: 'each step needs a type' }),
});

/** The service's JST document: unknown fields (view, comments, created, version, tags, ...) are kept. */
export const Transformation = z.looseObject({
  _id: TransformationId.optional(),
  name: z.string({ error: 'a transformation needs a name' }).trim().min(1, 'a transformation needs a name').max(300),
  description: z.string().optional(),
  incoming: z.array(Schema).default([]),
  outgoing: z.array(Schema).default([]),
  steps: z.array(TransformationStep).default([]),
  functions: z.array(z.record(z.string(), z.unknown())).default([]),
});
export type Transformation = z.infer<typeof Transformation>;

export const StoredTransformation = Transformation.extend({ _id: TransformationId });
export type StoredTransformation = z.infer<typeof StoredTransformation>;

/** The options of a run, as the transformation task and the designer's Run dialog name them. */
export const TransformationOptions = z.looseObject({
  validateIncoming: z.boolean().optional(),
  revertToDefaultValue: z.boolean().optional(),
  extractOutput: z.boolean().optional(),
});

const IdParams = z.object({ id: TransformationId });

const Problem = z.object({ name: z.string(), _id: z.string().optional(), message: z.string() });

export const transformationsOperations = defineOperations({
  'transformations.list': {
    method: 'GET',
    path: '/transformations',
    summary: 'The transformations of the active profile by name; `contains` searches names and descriptions',
    query: z.object({
      contains: z.string().optional(),
      skip: z.coerce.number().int().min(0).default(0),
      limit: z.coerce.number().int().min(1).max(1000).default(1000),
    }),
    output: z.object({ results: z.array(StoredTransformation), total: z.number() }),
  },
  'transformations.get': {
    method: 'GET',
    path: '/transformations/:id',
    summary: 'One transformation, whole',
    params: IdParams,
    output: StoredTransformation,
  },
  'transformations.create': {
    method: 'POST',
    path: '/transformations',
    summary: 'Import one transformation (its _id kept). 409 when the _id is taken unless overwrite=true; another of the same name is kept, with a warning',
    query: z.object({ overwrite: z.enum(['true', 'false']).optional().transform((v) => v === 'true') }),
    body: Transformation,
    output: StoredTransformation.extend({ warnings: z.array(z.string()).optional() }),
  },
  'transformations.import': {
    method: 'POST',
    path: '/transformations/import',
    summary: 'Import transformations: `{ "transformation": doc }` (the service\'s single import) or `{ "transformations": [docs] }`; each refused one is listed with why',
    body: z
      .object({ transformation: z.unknown().optional(), transformations: z.array(z.unknown()).optional(), overwrite: z.boolean().default(false) })
      .refine((b) => b.transformation !== undefined || (b.transformations?.length ?? 0) > 0, { message: 'send a `transformation` or a non-empty `transformations` list', path: ['transformations'] }),
    output: z.object({ imported: z.array(z.object({ _id: z.string(), name: z.string() })), problems: z.array(Problem), warnings: z.array(z.string()) }),
  },
  'transformations.replace': {
    method: 'PUT',
    path: '/transformations/:id',
    summary: 'Replace a transformation (the _id of the path is kept)',
    params: IdParams,
    body: Transformation,
    output: StoredTransformation.extend({ warnings: z.array(z.string()).optional() }),
  },
  'transformations.delete': {
    method: 'DELETE',
    path: '/transformations/:id',
    summary: 'Delete a transformation',
    params: IdParams,
    output: z.object({ deleted: z.string() }),
  },
  'transformations.run': {
    method: 'POST',
    path: '/transformations/:id/run',
    summary:
      'Run a transformation on incoming values by $id: `{ outgoing: { $id: value } }` (with options.extractOutput and one outgoing value, that value alone); 400 for incoming values that do not fit, 422 naming the step that failed',
    params: IdParams,
    body: z.object({
      incoming: z.record(z.string(), z.unknown()).default({}),
      options: TransformationOptions.default({}),
    }),
    output: z.object({ outgoing: z.unknown() }),
  },
});

type JsonSchemaLike = { type?: unknown; format?: unknown; default?: unknown; examples?: unknown; enum?: unknown; const?: unknown; properties?: unknown; items?: unknown; required?: unknown };

const FORMAT_SAMPLES: Record<string, string> = {
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  email: 'operator@example.com',
  hostname: 'host.example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  'date-time': '2022-01-01T00:00:00Z',
  date: '2022-01-01',
  time: '00:00:00Z',
  uuid: '00000000-0000-4000-8000-000000000000',
};

function fitsType(value: unknown, type: unknown): boolean {
  if (type === undefined) return value !== undefined;
  const types = Array.isArray(type) ? type : [type];
  const actual = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  return types.some((t) => t === actual || (t === 'integer' && Number.isInteger(value)) || (t === 'number' && actual === 'number'));
}

/** A value that fits a JSON schema, for a form's starting point: its default, an example, or one of its type. */
export function sampleFromSchema(schema: unknown, depth = 0): unknown {
  if (schema === null || typeof schema !== 'object' || depth > 32) return null;
  const s = schema as JsonSchemaLike;
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  const type = Array.isArray(s.type) ? (s.type.includes('object') ? 'object' : s.type.includes('string') ? 'string' : s.type[0]) : s.type;
  if (type === 'string' && typeof s.format === 'string' && FORMAT_SAMPLES[s.format] !== undefined) return FORMAT_SAMPLES[s.format];
  const example = Array.isArray(s.examples) ? s.examples.find((e) => fitsType(e, s.type)) : undefined;
  if (example !== undefined) return example;
  switch (type) {
    case 'string':
      return '';
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    case 'array':
      return s.items && typeof s.items === 'object' && !Array.isArray(s.items) ? [sampleFromSchema(s.items, depth + 1)] : [];
    case 'null':
      return null;
    case 'object':
    default: {
      if (type !== 'object' && !s.properties) return type === undefined ? null : {};
      const out: Record<string, unknown> = {};
      const props = (s.properties ?? {}) as Record<string, unknown>;
      for (const [name, sub] of Object.entries(props)) out[name] = sampleFromSchema(sub, depth + 1);
      return out;
    }
  }
}
