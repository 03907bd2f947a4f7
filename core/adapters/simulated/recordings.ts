// Recordings of a real adapter instance's calls (method, arguments and answer with secrets
// masked, duration), for a time or a number of calls, kept in the profile's store
// (`adapter_recordings`); listed, exported and imported as files, and made into a simulated
// instance that replays, per method, the answer whose recorded arguments match the call best.
import { randomUUID } from 'node:crypto';
import { ConsoleError } from '../../errors';
import type { Store } from '../../store/port';
import { MASK, redactSecrets } from '../../secrets/classify';
import type { SimulationRule } from './rules';

export const ADAPTER_RECORDINGS = 'adapter_recordings';

export interface RecordedCall {
  at: number;
  method: string;
  args: Record<string, unknown>;
  ok: boolean;
  answer: unknown;
  durationMs: number;
  /** The method's outgoing variable (its pronghorn.json `output.name`) the answer went to. */
  output?: string;
}

export interface Recording {
  _id: string;
  adapter: string;
  type: string;
  startedAt: number;
  /** Recording stops at this time (ms since epoch) or after this many calls, whichever comes first. */
  until: number;
  maxCalls: number;
  calls: RecordedCall[];
}

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Secrets masked: fields named as secrets anywhere, and the instance's own secret values wherever they appear. */
function masked<T>(value: T, known: readonly string[]): T {
  let text = JSON.stringify(redactSecrets(value) ?? null);
  for (const secret of known) if (secret.length >= 4) text = text.split(JSON.stringify(secret).slice(1, -1)).join(MASK);
  return JSON.parse(text);
}

export class CallRecorder {
  /** The recording under way per instance (this process's; the store keeps what was recorded). */
  private readonly active = new Map<string, Recording>();

  constructor(private readonly store: Store) {}

  private get recordings() {
    return this.store.collection(ADAPTER_RECORDINGS);
  }

  async start(adapter: string, type: string, limits: { seconds?: number; calls?: number }): Promise<Recording> {
    const now = Date.now();
    const recording: Recording = { _id: randomUUID(), adapter, type, startedAt: now, until: now + (limits.seconds ?? 300) * 1000, maxCalls: limits.calls ?? 1000, calls: [] };
    this.active.set(adapter, recording);
    await this.recordings.insertOne({ ...recording });
    return recording;
  }

  isRecording(adapter: string): boolean {
    const recording = this.active.get(adapter);
    return !!recording && Date.now() < recording.until && recording.calls.length < recording.maxCalls;
  }

  /** Notes one call of an instance being recorded (nothing otherwise). */
  async note(adapter: string, call: Omit<RecordedCall, 'at'>, secrets: readonly string[]): Promise<void> {
    const recording = this.active.get(adapter);
    if (!recording || !this.isRecording(adapter)) return;
    const entry: RecordedCall = { at: Date.now(), ...call, args: masked(call.args, secrets), answer: masked(call.answer, secrets) };
    recording.calls.push(entry);
    await this.recordings.updateOne({ _id: recording._id }, { $set: { calls: recording.calls } });
    if (!this.isRecording(adapter)) this.active.delete(adapter);
  }

  async list(): Promise<(Omit<Recording, 'calls'> & { callCount: number; recording: boolean })[]> {
    const docs = await this.recordings.find({}, { sort: { startedAt: -1 }, limit: 500 });
    return docs.map(toRecording).map(({ calls, ...rest }) => ({ ...rest, callCount: calls.length, recording: this.active.get(rest.adapter)?._id === rest._id && this.isRecording(rest.adapter) }));
  }

  /** A recording, its calls masked again by today's classifier (one kept before it knew a shape is exported masked too). */
  async get(id: string): Promise<Recording> {
    const doc = await this.recordings.findOne({ _id: id });
    if (!doc) throw new ConsoleError('not_found', `no adapter recording "${id}"`);
    return withCallsMasked(toRecording(doc));
  }

  /** A recording exported from a console (its file), saved under a new id. */
  async import(raw: unknown): Promise<Recording> {
    if (!isObject(raw) || typeof raw.adapter !== 'string' || typeof raw.type !== 'string' || !Array.isArray(raw.calls)) {
      throw new ConsoleError('bad_input', 'body.recording: expected an exported recording { adapter, type, calls: [...] }');
    }
    // A file from elsewhere may carry secrets in clear: they are masked before it is kept.
    const recording = { ...withCallsMasked(toRecording(raw)), _id: randomUUID() };
    await this.recordings.insertOne({ ...recording });
    return recording;
  }
}

const withCallsMasked = (recording: Recording): Recording => ({ ...recording, calls: recording.calls.map((c) => ({ ...c, args: masked(c.args, []), answer: masked(c.answer, []) })) });

function toRecording(doc: Obj): Recording {
  const calls = Array.isArray(doc.calls) ? doc.calls.filter(isObject) : [];
  return {
    _id: String(doc._id ?? ''),
    adapter: String(doc.adapter),
    type: String(doc.type),
    startedAt: Number(doc.startedAt ?? 0),
    until: Number(doc.until ?? 0),
    maxCalls: Number(doc.maxCalls ?? 0),
    calls: calls.map((c) => ({
      at: Number(c.at ?? 0),
      method: String(c.method),
      args: isObject(c.args) ? c.args : {},
      ok: c.ok !== false,
      answer: c.answer,
      durationMs: Number(c.durationMs ?? 0),
      ...(typeof c.output === 'string' && c.output !== '' ? { output: c.output } : {}),
    })),
  };
}

/** A masked secret matches whatever the call gives there: the recording never had its value. */
function withoutMasked(args: Obj): Obj {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== MASK).map(([k, v]) => [k, isObject(v) ? withoutMasked(v) : v]));
}

const keyCount = (value: unknown): number => (isObject(value) ? Object.values(value).reduce<number>((n, v) => n + 1 + keyCount(v), 0) : 0);

/**
 * A simulated instance's methods from a recording: per method, a rule per distinct recorded call
 * matching its arguments (the most specific first, so the best match answers), then the last
 * answer for calls that match none; each after the recorded duration.
 */
export function rulesFromRecording(recording: Recording): Record<string, { rules: SimulationRule[]; output?: string }> {
  const methods: Record<string, { rules: SimulationRule[]; output?: string }> = {};
  for (const method of new Set(recording.calls.map((c) => c.method))) {
    const calls = recording.calls.filter((c) => c.method === method);
    const seen = new Set<string>();
    const specific: SimulationRule[] = [];
    for (const call of [...calls].reverse()) {
      const key = JSON.stringify(call.args);
      if (seen.has(key)) continue;
      seen.add(key);
      specific.push({ match: withoutMasked(call.args), latencyMs: call.durationMs, ...(call.ok ? { response: call.answer } : { error: call.answer }) });
    }
    specific.sort((a, b) => keyCount(b.match) - keyCount(a.match));
    const last = calls[calls.length - 1];
    const fallback: SimulationRule[] = last ? [{ latencyMs: last.durationMs, ...(last.ok ? { response: last.answer } : { error: last.answer }) }] : [];
    // The recorded method's outgoing variable: the simulated answer lands where the real one did.
    const output = calls.find((c) => c.output !== undefined)?.output;
    methods[method] = { rules: [...specific, ...fallback], ...(output ? { output } : {}) };
  }
  return methods;
}
