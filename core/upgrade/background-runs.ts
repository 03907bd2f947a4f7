// The upgrade page's long work (a folder check, a rehearsal) runs in the background so the
// console can show its progress and cancel it. The last few runs are kept in memory: a run's
// report is only useful to the operator who started it.
const KEPT_RUNS = 10;

interface Entry<R> {
  run: R;
  abort: AbortController;
  finished: Promise<void>;
}

export class BackgroundRuns<R extends { id: string }> {
  private readonly runs = new Map<string, Entry<R>>();

  /** Keeps a run that started (`finished` settles when it ends); the oldest past the last few are canceled and dropped. */
  keep(run: R, abort: AbortController, finished: Promise<void>): R {
    this.runs.set(run.id, { run, abort, finished });
    for (const id of [...this.runs.keys()].slice(0, Math.max(0, this.runs.size - KEPT_RUNS))) {
      this.runs.get(id)?.abort.abort();
      this.runs.delete(id);
    }
    return { ...run };
  }

  get(id: string): R | undefined {
    const entry = this.runs.get(id);
    return entry && { ...entry.run };
  }

  /** The run once it ends, or as it stands after `ms`. */
  async settle(id: string, ms: number): Promise<R | undefined> {
    const entry = this.runs.get(id);
    if (!entry) return undefined;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([entry.finished, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
    return { ...entry.run };
  }

  /** Cancels a running one; it says so in its state once it has stopped. */
  async cancel(id: string): Promise<R | undefined> {
    const entry = this.runs.get(id);
    if (!entry) return undefined;
    entry.abort.abort();
    await entry.finished;
    return { ...entry.run };
  }

  /** Cancels every running one (the console is closing). */
  cancelAll(): void {
    for (const entry of this.runs.values()) entry.abort.abort();
  }
}
