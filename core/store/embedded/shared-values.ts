// Values kept once: a collection declared with shared fields (the service's `jobs`: `tasks` and
// `transitions`, its workflow's copy, the same for every job of one workflow version) has each such
// field's value, when an object or an array of MIN_SHARED characters of JSON or more, stored in the
// side table `_shared` keyed by a hash of its JSON text, and the row's document holds a reference in
// its place, at the same position: the string "\uFDD0R<key>" (codec.ts: a user string starting with
// U+FDD0 is stored escaped, so none reads as a reference). Like WiredTiger's compression, it is the
// store's business alone: every read gives the document as inserted (`resolve` puts the values back
// in the text before it is parsed; SQL reads it as mongo_resolve(doc)).
//
// A key's text never changes: a hash hit is compared with the text kept, and two values whose hashes
// meet take the next key ("<hash>.1"; past PROBES keys the value stays in its document). Rows of
// `_shared` are never deleted (a handful per workflow version): a document may refer to one until it
// is deleted, and the store cannot tell which do without reading every document. A file that holds
// one is raised to SHARED_SCHEMA in `_identity`, so an older console (which would misread a
// reference) refuses to open it.
import { createHash } from 'node:crypto';
import type { Doc, Filter, FindOptions, IndexSpec } from '../port';
import { StoreError } from '../errors';
import { decodeDoc, decodeWithRefs, encodeDoc, plainText, REF, REFERENCES, SharedRef } from './codec';
import { project } from './update';
import type { DatabaseSync } from './sqlite';
import { raiseSchema, SHARED_SCHEMA } from './identity';
import { isFrozenThrough } from '../../values/frozen';

/** The collections whose fields are kept once (the service's layout: a job carries its workflow's tasks and transitions). */
export const SHARED_FIELDS: Readonly<Record<string, readonly string[]>> = { jobs: ['tasks', 'transitions'] };

/** A value whose text is shorter is kept in the document: its reference would save nothing. */
const MIN_SHARED = 48;
/** Values kept in memory by text and by key (a handful per workflow version); all dropped past this. */
const KEPT = 5_000;
/** How many keys after a hash's own are tried when texts meet on it. */
const PROBES = 8;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 10);

export class SharedValues {
  private readonly byText = new Map<string, string>();
  private readonly byKey = new Map<string, string>();
  private readonly fields: ReadonlyMap<string, ReadonlySet<string>>;
  /** Collections with a column on a path inside a shared field (an index made before values were kept once): written whole. */
  private readonly whole = new Set<string>();
  /** Whether `_shared` exists and the schema was raised, as this connection knows. */
  private ready = false;
  /** The texts of values frozen all through (false: frozen, but not all through), by the values themselves. */
  private readonly frozenTexts = new WeakMap<object, string | false | undefined>();
  /** The last text mongo_resolve was given and what it answered (a filter reads the same row several times). */
  private lastIn = '';
  private lastOut = '';

  constructor(
    private readonly db: DatabaseSync,
    declared: Readonly<Record<string, readonly string[]>> = SHARED_FIELDS,
    /** The key of a text (a test gives one whose keys meet). */
    private readonly hash: (text: string) => string = sha256,
  ) {
    this.fields = new Map(Object.entries(declared).map(([collection, names]) => [collection, new Set(names)]));
  }

  /** The shared fields of a collection, or undefined. */
  of(collection: string): ReadonlySet<string> | undefined {
    return this.fields.get(collection);
  }

  /** Whether a dotted field (or a filter's or sort's key) lies in a shared field of `collection`. */
  inShared(collection: string, field: string): boolean {
    const fields = this.fields.get(collection);
    if (!fields) return false;
    const dot = field.indexOf('.');
    return fields.has(dot < 0 ? field : field.slice(0, dot));
  }

  /** Whether a filter names a path in a shared field of `collection` (in `$and` and `$or` too). */
  inFilter(collection: string, filter: Filter): boolean {
    if (!this.fields.has(collection)) return false;
    for (const key in filter) {
      const value = filter[key];
      if (key === '$and' || key === '$or') {
        if (Array.isArray(value) && value.some((part) => part !== null && typeof part === 'object' && this.inFilter(collection, part as Filter))) return true;
      } else if (this.inShared(collection, key)) return true;
    }
    return false;
  }

  /** A collection's index naming a shared field: its column would hold the reference. Not served by the embedded store. */
  checkIndex(collection: string, spec: IndexSpec) {
    const field = [...Object.keys(spec.key), ...Object.keys(spec.partialFilterExpression ?? {})].find((key) => this.inShared(collection, key));
    if (field === undefined) return;
    throw new StoreError('invalid', `index ${spec.name} on ${collection} names ${field}: the embedded store keeps ${collection}'s ${[...(this.fields.get(collection) ?? [])].join(' and ')} once per value, and serves no index on them`);
  }

  /**
   * A stored document as read, projected: the references resolved, unless the projection leaves
   * every shared field out anyway (a list's read does not parse the workflow's copy, nor does the
   * engine's read of a job whose copy it keeps: their references are dropped, not resolved).
   */
  read<T>(collection: string, text: string, projection: FindOptions['projection']): T {
    const doc = !text.includes(REF) ? decodeDoc<Doc>(text) : this.leavesOut(collection, projection) ? decodeWithRefs(text).doc : decodeDoc<Doc>(this.resolve(text));
    return project(doc, projection) as T;
  }

  /**
   * Whether a projection answers none of a collection's shared fields: an inclusion naming none, an
   * exclusion of each (its references are dropped in JavaScript: SQL's json_remove would cost more).
   */
  leavesOut(collection: string, projection: FindOptions['projection']): boolean {
    const fields = this.fields.get(collection);
    if (!projection || !fields) return false;
    const entries = Object.entries(projection);
    // As update.ts's `project` tells an inclusion.
    const including = entries.some(([field, v]) => field !== '_id' && v) || (entries.length === 1 && projection._id === 1);
    if (including) return !entries.some(([field]) => this.inShared(collection, field));
    for (const field of fields) if (projection[field] === undefined) return false;
    return true;
  }

  /**
   * A collection's columns as read (columns.ts's Layout): a column on a path inside a shared field (an
   * index made by a console before values were kept once; none is made now) is read from the stored
   * text, so that collection's documents are then written whole.
   */
  columns<L extends { readonly fields: ReadonlySet<string> }>(collection: string, layout: L): L {
    if (!this.fields.has(collection)) return layout;
    let whole = false;
    for (const field of layout.fields) whole ||= this.inShared(collection, field);
    if (whole) this.whole.add(collection);
    else this.whole.delete(collection);
    return layout;
  }

  /** A rolled-back transaction may have taken rows of `_shared` (or the table) with it: all is asked again. */
  forget() {
    this.byText.clear();
    this.byKey.clear();
    this.lastIn = '';
    this.ready = false;
  }

  /** The text a document of `collection` is stored as: its shared fields' values replaced by references. */
  encode(collection: string, doc: Doc): string {
    const fields = this.fields.get(collection);
    if (!fields || this.whole.has(collection)) return encodeDoc(doc);
    let copy: Record<string, unknown> | undefined;
    const keys = new Map<string, string>();
    for (const field of fields) {
      const value = doc[field];
      if (value === null || typeof value !== 'object' || value instanceof Date || value instanceof SharedRef || !Object.hasOwn(doc, field)) continue;
      const text = this.textOf(value);
      if (text === undefined || text.length < MIN_SHARED) continue;
      const key = this.keyOf(text);
      if (key === undefined) continue;
      // The reference's text in the value's place: JSON.stringify writes a string faster than it calls a toJSON.
      (copy ??= { ...doc })[field] = REF + key;
      keys.set(field, key);
    }
    if (!copy) return encodeDoc(doc);
    const plain = plainText(copy, keys.size);
    if (plain !== undefined) return plain;
    // A date or a marked string beside them: the replacer tells the references (SharedRef) from the user's strings.
    for (const [field, key] of keys) copy[field] = new SharedRef(key);
    return encodeDoc(copy, keys.size);
  }

  /**
   * The text of a shared field's value: encoded once for a value frozen all through (it cannot
   * change: the engine freezes the workflow it keeps, whose tasks and transitions every job of it
   * carries), at every write for any other.
   */
  private textOf(value: object): string | undefined {
    if (!Object.isFrozen(value)) return encodeDoc(value);
    let text = this.frozenTexts.get(value);
    if (text === undefined) {
      text = isFrozenThrough(value) ? encodeDoc(value) : false;
      this.frozenTexts.set(value, text);
    }
    return text === false ? encodeDoc(value) : text;
  }

  /** The document text with every reference replaced by its value's text. */
  resolve(text: string): string {
    if (!text.includes(REF)) return text;
    if (text === this.lastIn) return this.lastOut;
    const out = text.replace(REFERENCES, (_match, key: string) => `:${this.valueOf(key)}`);
    this.lastIn = text;
    this.lastOut = out;
    return out;
  }

  /** The text kept under `key`. */
  private valueOf(key: string): string {
    let text = this.byKey.get(key);
    if (text === undefined) {
      const row = this.hasTable() ? this.db.prepare('SELECT value FROM _shared WHERE key = ?').get(key) : undefined;
      if (!row) throw new StoreError('damaged', `a document refers to the shared value ${key}, which the store's _shared table does not hold`);
      text = String(row.value);
      this.keep(key, text);
    }
    return text;
  }

  private hasTable(): boolean {
    return this.ready || this.db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_shared'`).get() !== undefined;
  }

  private keep(key: string, text: string) {
    if (this.byKey.size >= KEPT) {
      this.byKey.clear();
      this.byText.clear();
    }
    this.byKey.set(key, text);
    this.byText.set(text, key);
  }

  /**
   * The key `text` is kept under, written to `_shared` when new (inside the caller's write: a
   * statement of its own outside a transaction, committed before the document that refers to it).
   * Undefined when every key tried holds another text: the value then stays in the document.
   */
  private keyOf(text: string): string | undefined {
    const known = this.byText.get(text);
    if (known !== undefined) return known;
    this.prepare();
    const hash = this.hash(text);
    for (let n = 0; n < PROBES; n++) {
      const key = n ? `${hash}.${n}` : hash;
      // Another console on the file may have written the key since this one last looked: OR IGNORE, then the text compared.
      this.db.prepare('INSERT OR IGNORE INTO _shared (key, value) VALUES (?, ?)').run(key, text);
      const row = this.db.prepare('SELECT value FROM _shared WHERE key = ?').get(key);
      if (String(row?.value) !== text) continue;
      this.keep(key, text);
      return key;
    }
    return undefined;
  }

  /** Creates `_shared` and raises the file's schema, once per connection (an older console then refuses the file). */
  private prepare() {
    if (this.ready) return;
    this.db.exec('CREATE TABLE IF NOT EXISTS _shared (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID');
    raiseSchema(this.db, SHARED_SCHEMA);
    this.ready = true;
  }
}

/**
 * A compiled filter's or sort's SQL reading the whole document: every `doc` (outside quoted
 * literals and names) read as mongo_resolve(doc). For a filter or sort on a path inside a shared field.
 */
export function resolvingDoc(sql: string): string {
  return sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\bdoc\b/g, (text) => (text === 'doc' ? 'mongo_resolve(doc)' : text));
}
