// GET /help/openapi: the console's API as an OpenAPI document, made from the contract itself (every
// operation's path, method, summary, parameters, body and answer, as JSON Schema through zod), so a
// client reads the body an endpoint takes before calling it, as the vendor's builder guides read the
// service's (`paths[...].post.requestBody`).
import { z } from 'zod';
import type { Operation, OperationTable } from '../contract/operation';
import type { Handlers } from '../dispatch/dispatch';
import { ConsoleError } from '../errors';

type Json = Record<string, unknown>;

/** A schema as JSON Schema; what JSON Schema cannot say (a transform, a custom check) is left open. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): z.core.JSONSchema.JSONSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  return rest;
}

/** The parameters a params or query schema declares, each with its own schema. */
function parameters(schema: z.ZodType | undefined, where: 'path' | 'query'): Json[] {
  if (!schema) return [];
  const json = jsonSchema(schema, 'input');
  const required = new Set(json.required ?? []);
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({ name, in: where, required: where === 'path' || required.has(name), schema: property }));
}

function operationObject(id: string, op: Operation): Json {
  const params = [...parameters(op.params, 'path'), ...parameters(op.query, 'query')];
  return {
    operationId: id,
    summary: op.summary,
    ...(params.length ? { parameters: params } : {}),
    ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(op.body, 'input') } } } } : {}),
    responses: {
      '200': { description: 'The answer', content: { 'application/json': { schema: jsonSchema(op.output, 'output') } } },
      default: { description: 'An error: `{ error, message, issues? }` naming the field or the cause' },
    },
  };
}

/** The OpenAPI path of a contract path: `/jobs/:id` → `/jobs/{id}`. */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** The document: the OpenAPI version, what the API is, and its paths. */
export type OpenApiDocument = {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Json>>;
};

/** The OpenAPI document of `operations`. */
export function openApiDocument(operations: OperationTable, info: { title: string; version: string }): OpenApiDocument {
  const paths: Record<string, Record<string, Json>> = {};
  for (const [id, op] of Object.entries(operations)) (paths[openApiPath(op.path)] ??= {})[op.method.toLowerCase()] = operationObject(id, op);
  return { openapi: '3.1.0', info, paths };
}

export interface HelpDeps {
  operations: OperationTable;
  version: string;
}

export function helpHandlers(deps: HelpDeps): Pick<Handlers, 'help.openapi'> {
  // Made at the first call, then kept: the contract does not change while the console runs.
  let made: OpenApiDocument | undefined;
  return {
    'help.openapi': ({ query }) => {
      const document = (made ??= openApiDocument(deps.operations, { title: 'Automation console', version: deps.version }));
      if (query.url === undefined) return document;
      // One path: as given (`:name` or `{name}` parameters), without its query string.
      const wanted = openApiPath(query.url.split('?')[0]!.replace(/\/+$/, '') || '/');
      const { paths } = document;
      if (!(wanted in paths)) throw new ConsoleError('not_found', `query.url: the console's API has no path ${wanted}`, { issues: [{ path: 'query.url', message: `no path ${wanted}` }] });
      return { ...document, paths: { [wanted]: paths[wanted]! } };
    },
  };
}
