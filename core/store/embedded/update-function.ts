// The SQL function mongo_update(doc, update) an update statement calls for each matched row:
// the document after a MongoDB update, counting the documents it changed and, for a tracked
// collection, the writes by the tracked field's value (changes.ts); and mongo_apply(doc, update),
// the same document without counting, read by the update's indexed columns (columns.ts).
//
// The update is bound as a number naming the update the running statement applies (`bind`),
// when its values come back equal through JSON (codec.ts's `jsonFate`) and none of its fields goes through an object it sets: it is applied as the
// caller gave it, not written as JSON text by the caller and parsed again for each row. Any
// other update is bound as its text, as encodeDoc writes it.
import type { Doc, Update } from '../port';
import { decodeDoc, decodeWithRefs, encodeDoc, holdsMark, jsonFate, REF, stringify } from './codec';
import { applyUpdate } from './update';
import type { ChangeCounts } from './changes';
import type { SharedValues } from './shared-values';

/** A number in a document's text that JSON.parse reads as a value JSON.stringify does not write back (-0, an overflow to Infinity). */
const UNSTABLE_NUMBER = /-0[,}\]\s]|[eE]\+?\d{3}/;

/**
 * Whether a field of the update goes through an object another field of its $set sets
 * (`{ $set: { a: {}, 'a.b': 1 } }`): applying it would change that object, the caller's.
 */
function walksIntoSetValue(update: Update): boolean {
  const set = update.$set ?? {};
  const fields = [...Object.keys(set), ...Object.keys(update.$inc ?? {}), ...Object.keys(update.$unset ?? {})];
  for (const key in set) {
    const value = set[key];
    if (typeof value !== 'object' || value === null) continue;
    if (fields.some((field) => field.startsWith(`${key}.`))) return true;
  }
  return false;
}

export class UpdateFunction {
  /** Documents the running update statement changed (reset by its caller). */
  modified = 0;
  /** The collection whose update statement runs now. */
  updating = '';
  /** Whether the running statement's caller takes the document it makes (`made`: a claim). */
  returning = false;
  /** The update bound as a number, that number, and whether its values hold a date or a mark (codec.ts). */
  private bound: Update = {};
  private boundAs = 0;
  private boundMarked = false;
  /** Whether the bound update's values are plain values only: a document it made can be handed out (`made`). */
  private boundScalars = false;
  /** The update bound as text, and that text parsed. */
  private text = '';
  private parsed: Update = {};
  /** The last document text and update mongo_update was given, and what it returned: mongo_apply of the same row reads it. */
  private lastIn: string | undefined;
  private lastUpdate: unknown = '';
  private lastOut = '';
  /** The document mongo_update last made in the running statement, and as an object no one else holds when it reads back as its text does. */
  private madeText: string | undefined;
  private lastDoc: Doc | undefined;

  constructor(
    private readonly changes: ChangeCounts,
    private readonly shared: SharedValues,
  ) {}

  /** The update and collection `touchesShared` last answered for, and its answer. */
  private touchedFor: [Update, string] | undefined;
  private touched = false;

  /** Whether `update` changes a field of `collection` kept once (or one inside it): it then works on the whole value. */
  private touchesShared(update: Update): boolean {
    if (!this.shared.of(this.updating)) return false;
    if (this.touchedFor?.[0] === update && this.touchedFor[1] === this.updating) return this.touched;
    const keys = [...Object.keys(update.$set ?? {}), ...Object.keys(update.$unset ?? {}), ...Object.keys(update.$inc ?? {})];
    this.touched = keys.some((key) => this.shared.inShared(this.updating, key));
    this.touchedFor = [update, this.updating];
    return this.touched;
  }

  /**
   * The document after an update of a row holding references to shared values: an update touching none
   * of them leaves them as they are (neither read nor written again); one touching them works on the
   * whole values, and they are kept once again.
   */
  private applyShared(text: string, update: Update, marked: boolean, before?: (doc: Record<string, unknown>) => void): { updated: Record<string, unknown>; next: string } {
    if (this.touchesShared(update)) {
      const doc = decodeDoc<Record<string, unknown>>(this.shared.resolve(text));
      before?.(doc);
      const updated = applyUpdate(doc, update, true);
      return { updated, next: this.shared.encode(this.updating, updated) };
    }
    const { doc, refs, plain } = decodeWithRefs(text);
    before?.(doc);
    const updated = applyUpdate(doc, update, true);
    // No date or marked string in the document nor in the update: JSON.stringify writes it as encodeDoc would (a SharedRef as its reference).
    return { updated, next: plain && !marked ? stringify(updated) : encodeDoc(updated, refs) };
  }

  /** The parameter an update statement binds for `update` (its SET's `mongo_update(doc, ?)` and `mongo_apply(doc, ?)`). */
  bind(update: Update): number | string {
    // A new statement: nothing made by it yet.
    this.madeText = undefined;
    this.lastDoc = undefined;
    const fate = jsonFate(update.$set, update.$inc, update.$unset);
    if (!fate.equal || (fate.objects && walksIntoSetValue(update))) return encodeDoc(update);
    this.bound = update;
    this.boundMarked = fate.marked;
    this.boundScalars = !fate.objects;
    return ++this.boundAs;
  }

  private updateOf(param: unknown): Update {
    if (param === this.boundAs) return this.bound;
    const text = String(param);
    if (text !== this.text) {
      this.parsed = decodeDoc<Update>(text);
      this.text = text;
    }
    return this.parsed;
  }

  /** The document after the update; counts it when it changed. */
  apply(text: string, param: unknown): string {
    const update = this.updateOf(param);
    const tracked = this.changes.isTracked(this.updating);
    const before = (doc: Record<string, unknown>) => {
      if (tracked) this.changes.wrote(this.updating, doc);
    };
    const marked = param === this.boundAs ? this.boundMarked : holdsMark(String(param));
    if (text.includes(REF) && this.shared.of(this.updating)) return this.applied(text, param, this.applyShared(text, update, marked, before), false);
    const doc = decodeDoc<Record<string, unknown>>(text);
    before(doc);
    // Parsed here and given only plain values by the update: no one else holds any part of it, and it may be handed out.
    const handOut = this.returning && param === this.boundAs && this.boundScalars && !UNSTABLE_NUMBER.test(text);
    const updated = applyUpdate(doc, update, !handOut);
    // Neither the document nor the update holds a date or a marked string, so neither does the result: JSON.stringify writes it as encodeDoc would.
    const whole = holdsMark(text) || marked ? encodeDoc(updated) : stringify(updated);
    // A shared field the update changed is kept once from now on (a document written before the store kept values once).
    const next = whole !== text && this.touchesShared(update) ? this.shared.encode(this.updating, updated) : whole;
    return this.applied(text, param, { updated, next }, handOut);
  }

  /** Counts and keeps what `apply` made of a row. */
  private applied(text: string, param: unknown, { updated, next }: { updated: Record<string, unknown>; next: string }, handOut: boolean): string {
    if (next !== text) {
      this.modified++;
      // The tracked field itself changed: the documents of its new value changed too.
      if (this.changes.isTracked(this.updating)) this.changes.wrote(this.updating, updated);
    }
    this.lastIn = text;
    this.lastUpdate = param;
    this.lastOut = next;
    this.madeText = next;
    this.lastDoc = handOut ? updated : undefined;
    return next;
  }

  /** The document after the update, not counted: SQLite evaluates `doc` (mongo_update) before the columns that call this. */
  again(text: string, param: unknown): string {
    if (text === this.lastIn && param === this.lastUpdate) return this.lastOut;
    const update = param === this.boundAs ? this.bound : decodeDoc<Update>(String(param));
    if (text.includes(REF) && this.shared.of(this.updating)) return this.applyShared(text, update, param === this.boundAs ? this.boundMarked : holdsMark(String(param))).next;
    return encodeDoc(applyUpdate(decodeDoc<Record<string, unknown>>(text), update, true));
  }

  /**
   * The document mongo_update made last in the statement bound last (a claim's, of its one row),
   * once: the object it made when no one else holds it, else its text parsed.
   */
  made<T>(): T {
    const [text, doc] = [this.madeText, this.lastDoc];
    if (text === undefined) throw new Error('mongo_update made no document in this statement');
    this.madeText = undefined;
    this.lastDoc = undefined;
    return doc === undefined ? decodeDoc<T>(this.shared.resolve(text)) : (doc as T);
  }
}
