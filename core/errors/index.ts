export { ERROR_CODES, codeOfStatus, isErrorCode, statusOf, type ErrorCode, type ErrorStatus } from './codes';
export { ConsoleError, isConsoleError, type ErrorDetails } from './console-error';
export { errorMessage, systemErrorCode } from './message';
