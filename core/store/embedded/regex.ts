// MongoDB's $regex for the embedded store's filters (sql.ts): the SQL function mongo_regex.
/** The patterns of a connection's $regex filters, compiled once each (a few per query form). */
export class RegexCache {
  private readonly kept = new Map<string, RegExp>();

  /** SQLite's answer (1 or 0): a string value the pattern matches. */
  readonly test = (value: unknown, pattern: unknown, flags: unknown): number => {
    return typeof value === 'string' && this.get(String(pattern), String(flags)).test(value) ? 1 : 0;
  };

  private get(pattern: string, flags: string): RegExp {
    const key = `${flags}\u0000${pattern}`;
    let regex = this.kept.get(key);
    if (!regex) {
      if (this.kept.size >= 200) this.kept.clear();
      regex = new RegExp(pattern, flags.replace(/[^ims]/g, ''));
      this.kept.set(key, regex);
    }
    return regex;
  }
}
