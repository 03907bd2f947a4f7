// The answers of Layout.arrayFree (columns.ts) kept between updates: which fields no document
// of a table holds an array on the path of. Each answer found (in a write transaction or out of one) is kept
// with the file's data_version then, which moves only when another connection commits (this
// connection's own commits leave it), and used while it has not moved; a write of this
// connection that may put an array on a field's path forgets that field's answer. Only
// "array-free" is kept: a field found holding an array is asked again. A transaction rolled
// back forgets the table's Layout, and these answers with it (Layouts.forget).
export class ArrayFreeAnswers {
  private readonly freeAt = new Map<string, number>();

  /** Every field's kept answer (all array-free) when each was found at `version`; undefined otherwise. */
  known(fields: readonly string[], version: number | undefined): boolean[] | undefined {
    if (version === undefined || !fields.every((field) => this.freeAt.get(field) === version)) return undefined;
    return fields.map(() => true);
  }

  /** Keeps the answers found at `version` (none outside a write transaction), and returns them. */
  keep(fields: readonly string[], version: number | undefined, answers: boolean[]): boolean[] {
    if (version === undefined) return answers;
    fields.forEach((field, i) => (answers[i] ? this.freeAt.set(field, version) : this.freeAt.delete(field)));
    return answers;
  }

  /** A document inserted, or an update's `$set`, by this connection: the fields it may put an array on the path of are asked again. */
  wrote(doc: Readonly<Record<string, unknown>> | undefined, set?: Readonly<Record<string, unknown>>) {
    for (const field of this.freeAt.keys()) {
      if (doc && arrayOnPath(doc, field.split('.'))) this.freeAt.delete(field);
      for (const key in set) {
        if (key !== field && !field.startsWith(`${key}.`)) continue;
        if (arrayOnPath(set[key], key === field ? [] : field.slice(key.length + 1).split('.'))) this.freeAt.delete(field);
      }
    }
  }
}

/** Whether a value walked along `path` meets an array (itself, or any value on the way). */
export function arrayOnPath(value: unknown, path: readonly string[]): boolean {
  let node = value;
  for (const segment of path) {
    if (Array.isArray(node)) return true;
    if (node === null || typeof node !== 'object') return false;
    node = Reflect.get(node, segment);
  }
  return Array.isArray(node);
}
