// The renderer's one way to the core: call an operation of the contract by name.
// Inside Electron it goes over the preload bridge (IPC); in a browser over HTTP
// with the console's token.
import { contract, type CallInput, type ErrorBody, type OperationName, type Output, type Contract } from '../../core/contract';
import { currentToken } from './token';

interface Bridge {
  operations: Record<string, (input?: unknown) => Promise<{ ok: true; data: unknown } | { ok: false; error: ErrorBody }>>;
}

declare global {
  interface Window {
    consoleApi?: Bridge;
  }
}

/** An error answered by the core: the status code and the message that says what to fix. */
export class ApiError extends Error {
  constructor(readonly body: ErrorBody) {
    super(body.message);
  }
  get statusCode() {
    return this.body.statusCode;
  }
  /** Field path → message, for inline form errors. */
  get fieldErrors(): Record<string, string> {
    return Object.fromEntries((this.body.issues ?? []).map((issue) => [issue.path, issue.message]));
  }
}

export function pathFor(template: string, params: Record<string, unknown> | undefined): string {
  return template.replace(/:([A-Za-z_]+)/g, (_match, key: string) => {
    const value = params?.[key];
    if (value === undefined) throw new Error(`missing path parameter "${key}"`);
    return encodeURIComponent(String(value));
  });
}

function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * How long a call may take before the console counts as not answering: a console that stops
 * answering without closing its connections is noticed. The live polls (status, attention) are
 * short, so the status bar turns grey within one poll interval and this; a write (an import,
 * a connection test) may take a while.
 */
export const LIVE_TIMEOUT_MS = 5_000;
export const READ_TIMEOUT_MS = 15_000;
export const WRITE_TIMEOUT_MS = 120_000;
const LIVE_OPERATIONS = new Set<OperationName>(['health.status', 'console.attention']);

export function timeoutFor(name: OperationName): number {
  if (LIVE_OPERATIONS.has(name)) return LIVE_TIMEOUT_MS;
  return contract[name].method === 'GET' ? READ_TIMEOUT_MS : WRITE_TIMEOUT_MS;
}

/** The error of a call that found no answer within its timeout (not worth trying again at once: it waited already). */
export const TIMED_OUT = 'Timed out';
const notAnswering = (ms: number) =>
  new ApiError({ statusCode: 0, error: TIMED_OUT, message: `the console server does not answer within ${Math.round(ms / 1000)} s` });

/** The call's answer, or a "does not answer" error once `ms` have passed. */
function withTimeout<T>(work: (signal: AbortSignal) => Promise<T>, ms: number): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(notAnswering(ms));
    }, ms);
  });
  return Promise.race([work(controller.signal), expired]).finally(() => clearTimeout(timer));
}

async function overHttp(name: OperationName, input: { params?: unknown; query?: unknown; body?: unknown }, signal: AbortSignal) {
  const operation = contract[name];
  const url = pathFor(operation.path, input.params as Record<string, unknown>) + queryString(input.query as Record<string, unknown>);
  let response: Response;
  try {
    response = await fetch(url, {
      method: operation.method,
      headers: {
        Authorization: `Bearer ${currentToken() ?? ''}`,
        // The console's log names the UI by this (its polling logged at debug), not by the browser's user agent.
        'X-Caller': 'console UI',
        ...(input.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      body: input.body !== undefined ? JSON.stringify(input.body) : undefined,
      signal,
    });
  } catch (error) {
    throw new ApiError({ statusCode: 0, error: 'Unreachable', message: `the console server does not answer (${(error as Error).message})` });
  }
  const text = await response.text();
  const data = text ? (JSON.parse(text) as unknown) : null;
  if (!response.ok) {
    throw new ApiError(
      (data as ErrorBody | null) ?? { statusCode: response.status, error: response.statusText, message: response.statusText },
    );
  }
  return data;
}

export async function call<N extends OperationName>(name: N, ...args: CallArgs<N>): Promise<Output<Contract[N]>> {
  const input = (args[0] ?? {}) as { params?: unknown; query?: unknown; body?: unknown };
  const bridge = typeof window !== 'undefined' ? window.consoleApi : undefined;
  const ms = timeoutFor(name);
  if (bridge) {
    const reply = await withTimeout(() => bridge.operations[name]!(input), ms);
    if (!reply.ok) throw new ApiError(reply.error);
    return reply.data as Output<Contract[N]>;
  }
  return (await withTimeout((signal) => overHttp(name, input, signal), ms)) as Output<Contract[N]>;
}

// `{} extends` asks whether an empty input is a valid one (every field optional): then the input may be left out.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
type CallArgs<N extends OperationName> = {} extends CallInput<Contract[N]> ? [input?: CallInput<Contract[N]>] : [input: CallInput<Contract[N]>];
