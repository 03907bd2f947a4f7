// The service's JST document (JSON Schema Transformation), as exported by its
// designer. Only what the interpreter reads is typed; every other field (view,
// comments, created, version, tags, ...) is kept as it came.

export type JsonSchema = Record<string, unknown> & { $id?: string; type?: unknown; default?: unknown };

/** One end of an `assign` step. */
export interface Endpoint {
  /** incoming, outgoing, method, declaration, function, template, context or static. */
  location: string;
  /** The `$id` of an incoming/outgoing schema, or the `id` of a step. */
  name?: string | number;
  /** A JSON pointer into it: `""`, `/return`, `/args/0/value`, `/a/b`. */
  ptr?: string;
  /** A static value (location `static`). */
  value?: unknown;
  [extra: string]: unknown;
}

export interface Step {
  id: number | string;
  /** assign, method, declaration, function, template or context. */
  type: string;
  library?: string;
  method?: string;
  /** Static arguments; `null` slots are wired by assign steps. */
  args?: unknown[];
  /** The function a `function` step calls, by name. */
  function?: string;
  /** The text of a `template` step, with `${name}` placeholders. */
  template?: string;
  from?: Endpoint;
  to?: Endpoint;
  polymorphIndex?: number;
  [extra: string]: unknown;
}

/** A document, or one of its nested `functions` (same shape, own scope). */
export interface JstScope {
  name?: string;
  id?: string | number;
  incoming?: JsonSchema[];
  outgoing?: JsonSchema[];
  steps?: Step[];
  functions?: JstScope[];
  [extra: string]: unknown;
}

export interface JstDocument extends JstScope {
  _id?: string;
  name: string;
  description?: string;
}

export interface RunOptions {
  /** Check incoming values against the incoming schemas first (default true). */
  validateIncoming?: boolean;
  /** Use the schemas' `default` for an incoming value not given and an outgoing value never written (default true). */
  revertToDefaultValue?: boolean;
  /** Longest run in milliseconds before the run ends with an error (default 5000). */
  timeoutMs?: number;
  /** Most steps run, nested functions and callbacks included (default 1,000,000). */
  maxSteps?: number;
  /** Deepest nesting of function calls (default 64). */
  maxDepth?: number;
}
