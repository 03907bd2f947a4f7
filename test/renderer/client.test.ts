// @vitest-environment happy-dom
// The renderer's client: one call by name, over the preload bridge or over HTTP.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, call, LIVE_TIMEOUT_MS, pathFor, READ_TIMEOUT_MS } from '../../renderer/api/client';
import { captureTokenFromUrl } from '../../renderer/api/token';

afterEach(() => {
  delete window.consoleApi;
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('pathFor', () => {
  it('fills and encodes path parameters', () => {
    expect(pathFor('/indexes/:collectionName/status', { collectionName: 'jobs x' })).toBe('/indexes/jobs%20x/status');
  });
  it('names a missing parameter', () => {
    expect(() => pathFor('/profiles/:id', {})).toThrow('missing path parameter "id"');
  });
});

describe('call', () => {
  it('goes over the preload bridge inside Electron and turns its errors into ApiError', async () => {
    const invoke = vi.fn(async () => ({ ok: false as const, error: { statusCode: 403, error: 'Forbidden', message: 'refused' } }));
    window.consoleApi = { operations: { 'health.status': invoke } };
    await expect(call('health.status')).rejects.toMatchObject({ statusCode: 403, message: 'refused' });
    expect(invoke).toHaveBeenCalledWith({});
  });

  it('goes over HTTP in a browser with the token taken from the URL fragment', async () => {
    window.history.replaceState(null, '', '/#token=abc123');
    captureTokenFromUrl();
    expect(window.location.hash).toBe('');
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ release: '2022.1' }), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(call('health.status')).resolves.toEqual({ release: '2022.1' });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/health/status');
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer abc123');
  });

  it('reports the server error body, field paths included', async () => {
    const body = { statusCode: 400, error: 'Bad Request', message: 'body.id: required', issues: [{ path: 'body.id', message: 'required' }] };
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(body), { status: 400 })));
    const error = (await call('health.status').catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.fieldErrors).toEqual({ 'body.id': 'required' });
  });

  it('says the server does not answer when the network fails', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(call('health.status')).rejects.toThrow('the console server does not answer');
  });

  it('gives up on a console that holds a live poll without answering, and aborts the request', async () => {
    vi.useFakeTimers();
    try {
      let aborted = false;
      vi.stubGlobal('fetch', vi.fn((_url: string, init: RequestInit) => new Promise<Response>(() => init.signal?.addEventListener('abort', () => (aborted = true)))));
      const pending = call('health.status').catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(LIVE_TIMEOUT_MS - 1);
      expect(aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      const error = (await pending) as ApiError;
      expect(error).toBeInstanceOf(ApiError);
      expect(error.message).toBe(`the console server does not answer within ${LIVE_TIMEOUT_MS / 1000} s`);
      expect(aborted).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('waits longer for a page read than for a live poll, over the preload bridge too', async () => {
    vi.useFakeTimers();
    try {
      window.consoleApi = { operations: { 'workflows.list': vi.fn(() => new Promise<never>(() => undefined)) } };
      const pending = call('workflows.list').catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(LIVE_TIMEOUT_MS);
      let settled = false;
      void pending.then(() => (settled = true));
      await vi.advanceTimersByTimeAsync(0);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(READ_TIMEOUT_MS - LIVE_TIMEOUT_MS);
      expect(((await pending) as ApiError).message).toContain(`within ${READ_TIMEOUT_MS / 1000} s`);
    } finally {
      vi.useRealTimers();
    }
  });
});
