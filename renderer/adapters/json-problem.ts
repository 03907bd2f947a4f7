// What is wrong with a JSON text, said with its line and column (as an editor names it), so a person
// editing rules finds the mistake without counting characters.

export interface JsonProblem {
  line: number;
  column: number;
  /** "line 3, column 5: Expected ',' or '}' after property value" */
  message: string;
}

/** The line and column (from 1) of a character offset in a text. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
}

/** Undefined when the text is valid JSON; else where and what (the engine's own words, without its position wording). */
export function jsonProblem(text: string): JsonProblem | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    const raw = error instanceof Error ? error.message : String(error);
    const stated = /\(line (\d+) column (\d+)\)/.exec(raw);
    const position = /at position (\d+)/.exec(raw);
    // V8 names "line N column M" for a multi-line text, only the position otherwise; an unexpected end is at the end.
    const where = stated
      ? { line: Number(stated[1]), column: Number(stated[2]) }
      : lineAndColumn(text, position ? Number(position[1]) : text.length);
    const what = raw
      .replace(/\s*\(line \d+ column \d+\)/, '')
      .replace(/,? (in JSON )?at position \d+/, '')
      .replace(/ in JSON$/, '')
      .trim();
    return { ...where, message: `line ${where.line}, column ${where.column}: ${what || 'not valid JSON'}` };
  }
}
