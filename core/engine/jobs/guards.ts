// Narrowing helpers for values read from workflows and the store, so the engine
// checks what it reads instead of asserting its type.

/** A plain object (not null, not an array). */
export const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** An error's message, or the thrown value as text. */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
