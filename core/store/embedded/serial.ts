// Runs async functions one after another: the embedded store's writes to one
// collection go through one of these, which is what makes a find-then-update
// claim atomic (see EmbeddedCollection.findOneAndUpdate).
export class Serial {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn, fn);
    // The caller gets `result`'s error; the chain only orders the next call after this one.
    this.tail = result.catch(() => undefined);
    return result;
  }
}
