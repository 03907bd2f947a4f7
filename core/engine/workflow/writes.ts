// The workflow writes one container (one profile's store) has made. A job runner keeps the
// workflows it read by name for a second; a write through this container's workflows service
// is seen by that container's runner at once, by any other container or process within the second.
// Each container makes its own: a write to one profile's store says nothing of another's.

export class WorkflowWrites {
  private count = 0;

  /** How many writes so far: a workflow read before the count changed is read again. */
  get value(): number {
    return this.count;
  }

  /** A workflow was saved or deleted (or the attempt ended: it may have landed). */
  note(): void {
    this.count++;
  }
}
