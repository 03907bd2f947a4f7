// json-query ships no types: the part of its API the query task uses.
declare module 'json-query' {
  interface JsonQueryOptions {
    data?: unknown;
    locals?: Record<string, (input: unknown, ...args: unknown[]) => unknown>;
    allowRegexp?: boolean;
  }
  function jsonQuery(query: string, options: JsonQueryOptions): { value: unknown };
  export default jsonQuery;
}
