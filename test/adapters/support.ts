// Helpers of the adapter tests: the fixtures folder and polling until a condition holds.
import path from 'node:path';

export const FIXTURES = path.resolve(import.meta.dirname, 'fixtures');

/** Polls `probe` until it returns a truthy value; fails with the last value after `timeoutMs`. */
type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;

export async function waitFor<T>(probe: () => Promise<T> | T, what: string, timeoutMs = 15_000): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await probe();
    if (last) return last as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
