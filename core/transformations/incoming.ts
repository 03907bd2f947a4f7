// Incoming values checked against the document's `incoming` schemas (ajv), and
// the schemas' defaults for values not given. A schema's `$id` in these documents
// is the variable's name, not a URI, so it is left out when compiling.
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { TransformationError } from './errors';
import type { JsonSchema, JstDocument } from './types';
import { errorMessage } from '../errors';
import { makeRoom } from '../values/bounded-map';

const MAX_BY_TEXT = 2_000;

/**
 * The compiled validators of incoming schemas. Compiling is the slow part: validators
 * are kept per schema object, and per schema text (a bounded number) for the same
 * document read again from the store. One per transformations service (a profile's
 * service, its cache), or one per run for a document run on its own.
 */
export class IncomingValidators {
  private readonly ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
  private readonly bySchema = new WeakMap<JsonSchema, ValidateFunction>();
  private readonly byText = new Map<string, ValidateFunction>();
  private readonly unreadable = new Map<string, string>();

  constructor() {
    addFormats(this.ajv);
  }

  /** The validator of a schema, or the reason ajv cannot compile it. */
  validatorFor(schema: JsonSchema): ValidateFunction | string {
    let validate = this.bySchema.get(schema);
    if (validate) return validate;
    const { $id: _name, $schema: _draft, ...body } = schema;
    const text = JSON.stringify(body);
    const known = this.unreadable.get(text);
    if (known !== undefined) return known;
    validate = this.byText.get(text);
    if (!validate) {
      try {
        validate = this.ajv.compile(body);
      } catch (error) {
        makeRoom(this.unreadable, MAX_BY_TEXT);
        this.unreadable.set(text, errorMessage(error));
        return errorMessage(error);
      }
      makeRoom(this.byText, MAX_BY_TEXT);
      this.byText.set(text, validate);
    }
    this.bySchema.set(schema, validate);
    return validate;
  }
}

/** The incoming schemas ajv cannot read (their values are then not checked), for the import's warnings. */
export function unreadableSchemas(doc: JstDocument, validators: IncomingValidators): string[] {
  const out: string[] = [];
  for (const schema of Array.isArray(doc.incoming) ? doc.incoming : []) {
    const validate = validators.validatorFor(schema);
    if (typeof validate === 'string') out.push(`transformation "${doc.name}": the incoming schema "${String(schema.$id)}" cannot be read (${validate}), so its values are not checked`);
  }
  return out;
}

/** Throws a TransformationError listing every incoming value that does not fit its schema (`checks`: each incoming variable's validator). Values not given are not checked. */
export function checkValues(document: string, checks: { name: string; validate: ValidateFunction | string }[], values: Record<string, unknown>): void {
  let details: { path: string; message: string }[] | undefined;
  for (const { name, validate } of checks) {
    const value = values[name];
    // A schema ajv cannot read is not held against the values: the import listed it as a warning.
    if (value === undefined || typeof validate === 'string' || validate(value)) continue;
    details ??= [];
    for (const error of validate.errors ?? []) {
      details.push({ path: `incoming.${name}${error.instancePath.replaceAll('/', '.')}`, message: error.message ?? 'does not fit the schema' });
    }
  }
  if (details !== undefined && details.length > 0) {
    throw new TransformationError('invalid-incoming', details.map((d) => `${d.path} ${d.message}`).join('; '), { document }, details);
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
