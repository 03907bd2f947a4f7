export { ERROR_CODES, codeOfStatus, isErrorCode, isRefusal, isServerFault, statusOf, type ErrorCode, type ErrorStatus } from './codes';
export { ConsoleError, isConsoleError, type ErrorDetails } from './console-error';
export { errorMessage, systemErrorCode } from './message';
export { DomainError, answerOf, answeringDomain, type DomainFault } from './domain';
