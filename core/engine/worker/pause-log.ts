// When the task worker says it paused for a store that takes no writes, and resumed: once per
// cause and minute, so a store that fails, recovers and fails again says it once, not every round.
const EVERY_MS = 60_000;

export class PauseLog {
  private pausedFor: string | undefined;
  private readonly said = new Map<string, number>();
  private announced = false;

  /** The worker's state now (the cause it pauses for, or undefined); answers what to say, if anything. */
  update(cause: string | undefined, now = Date.now()): 'paused' | 'resumed' | undefined {
    const was = this.pausedFor;
    this.pausedFor = cause;
    if (cause && !was) {
      // The cause without its details (a message quoting a size or a page): the same cause is said once a minute.
      const key = cause.replace(/ \(.*$/, '');
      if (now - (this.said.get(key) ?? -Infinity) < EVERY_MS) return undefined;
      this.said.set(key, now);
      this.announced = true;
      return 'paused';
    }
    if (!cause && was && this.announced) {
      this.announced = false;
      return 'resumed';
    }
    return undefined;
  }
}
