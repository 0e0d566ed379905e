import { healthSchema, readinessSchema } from '@verbatim/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../test/stubApi';
import { apiRequest, defaultRequestTimeoutMs } from './apiClient';
import { ApiRequestError, isGlobalFailure } from './ApiRequestError';

const health = { status: 'ok', version: '1.0.0', uptimeSeconds: 12 };

async function failureOf(promise: Promise<unknown>): Promise<ApiRequestError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof ApiRequestError))
    throw new Error(`expected an ApiRequestError, got ${String(error)}`);
  return error;
}

/** A fetch that never answers, but rejects like the real one when its signal aborts. */
function hangingFetch() {
  return vi.fn(
    (_input: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      }),
  );
}

afterEach(() => {
  vi.useRealTimers();
});

describe('apiRequest', () => {
  it('calls /api/v1 and returns the body validated by the schema', async () => {
    const fetchMock = stubApi({ '/api/v1/health': { body: health } });

    await expect(apiRequest('/health', { schema: healthSchema })).resolves.toEqual(health);
    expect(fetchMock).toHaveBeenCalledWith('/api/v1/health', expect.objectContaining({ method: 'GET' }));
  });

  it('sends a body as JSON', async () => {
    const fetchMock = stubApi({ '/api/v1/health': { body: health } });

    await apiRequest('/health', { schema: healthSchema, method: 'POST', body: { a: 1 } });

    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.body).toBe('{"a":1}');
    expect(init?.headers).toMatchObject({ 'content-type': 'application/json' });
  });

  it('turns an API error body into a typed error carrying status, code and errorId', async () => {
    stubApi({
      '/api/v1/health': {
        status: 500,
        body: { code: 'INTERNAL_ERROR', message: 'Internal server error', errorId: 'err-42' },
      },
    });

    const error = await failureOf(apiRequest('/health', { schema: healthSchema }));

    expect(error).toMatchObject({
      status: 500,
      code: 'INTERNAL_ERROR',
      message: 'Internal server error',
      errorId: 'err-42',
    });
    expect(isGlobalFailure(error)).toBe(true);
  });

  it('keeps client errors local to the screen', async () => {
    stubApi({
      '/api/v1/health': { status: 429, body: { code: 'RATE_LIMITED', message: 'Slow down' } },
    });

    const error = await failureOf(apiRequest('/health', { schema: healthSchema }));

    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED', errorId: undefined });
    expect(isGlobalFailure(error)).toBe(false);
  });

  it('reports an error body that is not an API error as UNEXPECTED_RESPONSE', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response('<html>Bad gateway</html>', { status: 502 }))),
    );

    const error = await failureOf(apiRequest('/health', { schema: healthSchema }));

    expect(error).toMatchObject({ status: 502, code: 'UNEXPECTED_RESPONSE' });
    expect(isGlobalFailure(error)).toBe(true);
  });

  it('reports a success body that breaks the contract as UNEXPECTED_RESPONSE', async () => {
    stubApi({ '/api/v1/health': { body: { status: 'fine' } } });

    const error = await failureOf(apiRequest('/health', { schema: healthSchema }));

    expect(error).toMatchObject({ status: 200, code: 'UNEXPECTED_RESPONSE' });
  });

  it('reads the body of a status listed as an answer', async () => {
    const notReady = {
      status: 'not_ready',
      checks: {
        database: { ok: false, detail: 'down' },
        migrations: { ok: true, pending: [] },
        speech: { ok: true, models: ['base-q8_0'], workers: 1, busy: 0, waiting: 0 },
        storage: { ok: true, kind: 'local' },
      },
    };
    stubApi({ '/api/v1/ready': { status: 503, body: notReady } });

    await expect(apiRequest('/ready', { schema: readinessSchema, answerStatuses: [503] })).resolves.toEqual(
      notReady,
    );
  });

  it('gives up with TIMEOUT after 10 s without an answer, not before', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('fetch', hangingFetch());
    let settled = false;
    const request = apiRequest('/health', { schema: healthSchema }).finally(() => {
      settled = true;
    });
    const failure = failureOf(request);

    await vi.advanceTimersByTimeAsync(defaultRequestTimeoutMs - 1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);

    expect(await failure).toMatchObject({ status: 0, code: 'TIMEOUT' });
    expect(isGlobalFailure(await failure)).toBe(false);
  });

  it('honours a shorter timeout given by the caller', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('fetch', hangingFetch());
    const failure = failureOf(apiRequest('/health', { schema: healthSchema, timeoutMs: 500 }));

    await vi.advanceTimersByTimeAsync(500);

    expect(await failure).toMatchObject({ code: 'TIMEOUT' });
  });

  it('lets a cancellation by the caller through as an abort, not a TIMEOUT', async () => {
    vi.stubGlobal('fetch', hangingFetch());
    const controller = new AbortController();
    const request = apiRequest('/health', { schema: healthSchema, signal: controller.signal });

    controller.abort();

    await expect(request).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('reports an unreachable server as NETWORK_ERROR', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );

    const error = await failureOf(apiRequest('/health', { schema: healthSchema }));

    expect(error).toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
  });
});
