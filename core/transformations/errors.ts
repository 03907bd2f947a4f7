// The error a transformation run ends with: it names the document, the step, the
// library method and the pointer, so an operator can find the step in the designer.

export type TransformationErrorCode =
  | 'invalid-document'
  | 'invalid-incoming'
  | 'unsupported'
  | 'step-failed'
  | 'limit';

export interface ErrorPlace {
  document: string;
  /** The nested function the step is in, when not the document's own steps. */
  function?: string;
  step?: number | string;
  /** `Library.method`, `template`, or `function <name>`. */
  method?: string;
  pointer?: string;
}

export class TransformationError extends Error {
  constructor(
    readonly code: TransformationErrorCode,
    readonly cause0: string,
    readonly place: ErrorPlace,
    readonly details: { path: string; message: string }[] = [],
  ) {
    super(describe(cause0, place));
    this.name = 'TransformationError';
  }
}

function describe(cause: string, place: ErrorPlace): string {
  const where = [`transformation "${place.document}"`];
  if (place.function !== undefined) where.push(`function "${place.function}"`);
  if (place.step !== undefined) where.push(place.method !== undefined ? `step ${place.step} (${place.method})` : `step ${place.step}`);
  else if (place.method !== undefined) where.push(`(${place.method})`);
  if (place.pointer !== undefined) where.push(`at pointer "${place.pointer}"`);
  return `${where.join(', ')}: ${cause}`;
}

/** Thrown by a library method for a wrong argument; the interpreter adds the place (and `/args/N/value` when the argument is known). */
export class MethodArgumentError extends Error {
  constructor(
    message: string,
    readonly argIndex?: number,
  ) {
    super(message);
  }
}
