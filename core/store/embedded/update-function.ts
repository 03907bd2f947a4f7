// The SQL function mongo_update(doc, update) an update statement calls for each matched row:
// the document after a MongoDB update, counting the documents it changed and, for a tracked
// collection, the writes by the tracked field's value (changes.ts); and mongo_apply(doc, update),
// the same document without counting, read by the update's indexed columns (columns.ts).
import type { Update } from '../port';
import { decodeDoc, encodeDoc, holdsMark } from './codec';
import { applyUpdate } from './update';
import type { ChangeCounts } from './changes';

export class UpdateFunction {
  /** Documents the running update statement changed (reset by its caller). */
  modified = 0;
  /** The collection whose update statement runs now. */
  updating = '';
  private text = '';
  private parsed: Update = {};
  /** The last document text and update mongo_update was given, and what it returned: mongo_apply of the same row reads it. */
  private lastIn: string | undefined;
  private lastUpdate = '';
  private lastOut = '';

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
    // Neither text holds a date or a marked string, so neither does the result: JSON.stringify writes it as encodeDoc would.
    const next = holdsMark(text) || holdsMark(updateText) ? encodeDoc(updated) : JSON.stringify(updated);
    if (next !== text) {
      this.modified++;
      // The tracked field itself changed: the documents of its new value changed too.
      if (tracked) this.changes.wrote(this.updating, updated);
    }
    this.lastIn = text;
    this.lastUpdate = updateText;
    this.lastOut = next;
    return next;
  }

  /** The document after the update, not counted: SQLite evaluates `doc` (mongo_update) before the columns that call this. */
  again(text: string, updateText: string): string {
    if (text === this.lastIn && updateText === this.lastUpdate) return this.lastOut;
    return encodeDoc(applyUpdate(decodeDoc<Record<string, unknown>>(text), decodeDoc<Update>(updateText)));
  }
}
