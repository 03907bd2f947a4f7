// The errors of the pure decision core (core/engine/jobs/decide.ts and what it imports: the operator's
// actions, the undefined codec...). They say what is wrong in the domain's own words, a `fault`, and name
// no code and no HTTP status: the edge that carries a decision out (the job executor) or answers a call
// (core/dispatch's errorBody) answers them through `answerOf`, by the table below.
import { ConsoleError, type ErrorDetails } from './console-error';
import type { ErrorCode } from './codes';

/** no-such-part: the job has no such task; not-allowed: the job's or task's state does not allow it; invalid-value: a value given cannot be kept. */
export type DomainFault = 'no-such-part' | 'not-allowed' | 'invalid-value';

export class DomainError extends Error {
  constructor(
    readonly fault: DomainFault,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

const CODE_OF_FAULT: Record<DomainFault, ErrorCode> = { 'no-such-part': 'not_found', 'not-allowed': 'conflict', 'invalid-value': 'bad_input' };

/** The answer of a domain error: a ConsoleError of its fault's code, the same message and details. */
export const answerOf = (error: DomainError): ConsoleError => new ConsoleError(CODE_OF_FAULT[error.fault], error.message, error.details, { cause: error });

/** A domain error as its answer; anything else as it is. */
export const answeringDomain = (error: unknown): unknown => (error instanceof DomainError ? answerOf(error) : error);
