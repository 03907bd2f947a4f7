// better-sqlite3 comes with plainjob and liteque (bench-only) without its types: what the queue bench uses of it.
declare module 'better-sqlite3' {
  export interface Database {
    name: string;
    close(): void;
    [member: string]: unknown;
  }
  export type Transaction<F> = F;
  const Database: new (file: string) => Database;
  export default Database;
}
