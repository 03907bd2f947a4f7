// What a caught value says, without asserting that it is an Error: `catch` gives `unknown`.

/** The message of a caught value: an Error's own, anything else as text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The `code` of a Node.js system error (`ENOENT`, `EACCES`...), or undefined for anything else. */
export function systemErrorCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}
