// A regular expression as the service's designer writes one in a text field: `/source/flags`.
// The JST RegExp methods and the string tasks (match, search) both read a pattern so; this is
// the one place that says what counts as that form (a text that is not is a pattern as it is).

/** The expression's source and flags when `text` is written `/source/flags` (flags JavaScript knows); else undefined. */
export function writtenPattern(text: string): { source: string; flags: string } | undefined {
  const literal = /^\/(.*)\/([dgimsuvy]*)$/s.exec(text);
  return literal ? { source: literal[1] ?? '', flags: literal[2] ?? '' } : undefined;
}
