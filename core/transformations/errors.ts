// The error a transformation run ends with: it names the document, the step, the
// library method and the pointer, so an operator can find the step in the designer.
import { ConsoleError, type ErrorCode } from '../errors';

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

/** Incoming values that do not fit are the caller's fault (400); a document that fails on them, 422. */
const CODE_OF_REASON: Record<TransformationErrorCode, ErrorCode> = {
  'invalid-incoming': 'bad_input',
  'invalid-document': 'unprocessable',
  unsupported: 'unprocessable',
  'step-failed': 'unprocessable',
  limit: 'unprocessable',
};

export class TransformationError extends ConsoleError {
  constructor(
    readonly reason: TransformationErrorCode,
    readonly cause0: string,
    readonly place: ErrorPlace,
    /** The incoming values that do not fit, each by its path. */
    readonly issues: { path: string; message: string }[] = [],
  ) {
    super(CODE_OF_REASON[reason], describe(cause0, place), answerDetails(reason, place, issues));
    this.name = 'TransformationError';
  }
}

/** What the answer names besides the message: the reason as `code`, the place, and each value that does not fit. */
function answerDetails(reason: TransformationErrorCode, place: ErrorPlace, issues: { path: string; message: string }[]): Record<string, unknown> {
  const { document, function: fn, step, method, pointer } = place;
  return {
    code: reason,
    document,
    ...(fn !== undefined ? { function: fn } : {}),
    ...(step !== undefined ? { step } : {}),
    ...(method ? { method } : {}),
    ...(pointer !== undefined ? { pointer } : {}),
    ...(reason === 'invalid-incoming' ? { issues: issues.map((d) => ({ path: `body.${d.path}`, message: d.message })) } : {}),
  };
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
