// The SQL function mongo_update(doc, update) an update statement calls for each matched row:
// the document after a MongoDB update, counting the documents it changed and, for a tracked
// collection, the writes by the tracked field's value (changes.ts).
import type { Update } from '../port';
import { decodeDoc, encodeDoc } from './codec';
import { applyUpdate } from './update';
import type { ChangeCounts } from './changes';

export class UpdateFunction {
  /** Documents the running update statement changed (reset by its caller). */
  modified = 0;
  /** The collection whose update statement runs now. */
  updating = '';
  private text = '';
  private parsed: Update = {};

  constructor(private readonly changes: ChangeCounts) {}

  /** The document after the update; counts it when it changed. */
  apply(text: string, updateText: string): string {
    if (updateText !== this.text) {
      this.parsed = decodeDoc<Update>(updateText);
      this.text = updateText;
    }
    const doc = decodeDoc<Record<string, unknown>>(text);
    const tracked = this.changes.isTracked(this.updating);
    if (tracked) this.changes.wrote(this.updating, doc);
    const updated = applyUpdate(doc, this.parsed);
    const next = encodeDoc(updated);
    if (next !== text) {
      this.modified++;
      // The tracked field itself changed: the documents of its new value changed too.
      if (tracked) this.changes.wrote(this.updating, updated);
    }
    return next;
  }
}
