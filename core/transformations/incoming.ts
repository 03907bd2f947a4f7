// Incoming values checked against the document's `incoming` schemas (ajv), and
// the schemas' defaults for values not given. A schema's `$id` in these documents
// is the variable's name, not a URI, so it is left out when compiling.
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { TransformationError } from './errors';
import type { JsonSchema, JstDocument } from './types';

const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
addFormats(ajv);

// Compiling is the slow part: validators are kept per schema object, and per schema
// text (a bounded number) for the same document read again from the store.
const bySchema = new WeakMap<JsonSchema, ValidateFunction>();
const byText = new Map<string, ValidateFunction>();
const MAX_BY_TEXT = 2_000;

function validatorFor(schema: JsonSchema, document: string): ValidateFunction {
  let validate = bySchema.get(schema);
  if (validate) return validate;
  const { $id: _name, $schema: _draft, ...body } = schema;
  const text = JSON.stringify(body);
  validate = byText.get(text);
  if (!validate) {
    try {
      validate = ajv.compile(body);
    } catch (error) {
      throw new TransformationError('invalid-document', `the incoming schema "${String(schema.$id)}" cannot be read: ${(error as Error).message}`, { document });
    }
    if (byText.size >= MAX_BY_TEXT) byText.delete(byText.keys().next().value!);
    byText.set(text, validate);
  }
  bySchema.set(schema, validate);
  return validate;
}

/** Throws a TransformationError listing every incoming value that does not fit its schema. Values not given are not checked. */
export function checkIncoming(doc: JstDocument, values: Record<string, unknown>): void {
  const details: { path: string; message: string }[] = [];
  for (const schema of doc.incoming ?? []) {
    const name = String(schema.$id);
    const value = values[name];
    if (value === undefined) continue;
    const validate = validatorFor(schema, doc.name);
    if (validate(value)) continue;
    for (const error of validate.errors ?? []) {
      details.push({ path: `incoming.${name}${error.instancePath.replaceAll('/', '.')}`, message: error.message ?? 'does not fit the schema' });
    }
  }
  if (details.length > 0) {
    throw new TransformationError('invalid-incoming', details.map((d) => `${d.path} ${d.message}`).join('; '), { document: doc.name }, details);
  }
}

export function withDefaults(schemas: JsonSchema[] | undefined, values: Record<string, unknown>): Record<string, unknown> {
  const out = { ...values };
  for (const schema of schemas ?? []) {
    const name = String(schema.$id);
    if (out[name] === undefined && schema.default !== undefined) out[name] = structuredClone(schema.default);
  }
  return out;
}
