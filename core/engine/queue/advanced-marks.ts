// Marking ended task records `advanced: true` once their job was advanced, where the
// store has no transactions (MongoDB): marks asked for while one write is on its way
// go together in the next (one updateMany by _id), so tasks ending side by side cost
// one round trip. Each caller still waits for the write that carries its mark.
import type { Collection } from '../../store/port';
import type { TaskRecord } from './queue';

interface Pending {
  id: string;
  resolve(): void;
  reject(error: unknown): void;
}

export class AdvancedMarks {
  private pending: Pending[] = [];
  private flushing = false;

  constructor(private readonly tasks: Collection<TaskRecord>) {}

  /** Resolves once the record is written `advanced: true`. */
  mark(id: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ id, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush() {
    this.flushing = true;
    try {
      while (this.pending.length) {
        const batch = this.pending.splice(0);
        try {
          const [only] = batch;
          if (batch.length === 1 && only) await this.tasks.updateOne({ _id: only.id }, { $set: { advanced: true } });
          else await this.tasks.updateMany({ _id: { $in: batch.map((p) => p.id) } }, { $set: { advanced: true } });
          for (const p of batch) p.resolve();
        } catch (error) {
          // Each caller learns it; a record left `advanced: false` is advanced again by the sweeper.
          for (const p of batch) p.reject(error);
        }
      }
    } finally {
      this.flushing = false;
    }
  }
}
