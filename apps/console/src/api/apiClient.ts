import { apiErrorSchema } from '@verbatim/contracts';
import type { z } from 'zod';
import { apiAuth } from './apiAuth';
import { ApiRequestError } from './ApiRequestError';

export const apiBasePath = '/api/v1';

/** Spec §9: a fetch that has not answered after 10 s is abandoned with a TIMEOUT error. */
export const defaultRequestTimeoutMs = 10_000;

export interface ApiRequestOptions<Schema extends z.ZodType> {
  /** Validates the answer body; the result is typed from it. */
  schema: Schema;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON, except form data (multipart) and URL-encoded parameters, which go as they are. */
  body?: unknown;
  /** Cancels the request, e.g. TanStack Query's signal when the component unmounts. */
  signal?: AbortSignal;
  timeoutMs?: number;
  /**
   * Non-2xx statuses whose body is still an answer of `schema` rather than an error, such as
   * 503 from /ready, which reports what is not ready.
   */
  answerStatuses?: readonly number[];
  /** Sent instead of the session's token: a token just obtained, not stored yet. */
  accessToken?: string;
  /** Request headers beyond accept, content type and authorisation (e.g. an upload's x-start-byte). */
  headers?: Record<string, string>;
}

/** Calls `/api/v1{path}` and returns the validated body, or rejects with an {@link ApiRequestError}. */
export async function apiRequest<Schema extends z.ZodType>(
  path: string,
  options: ApiRequestOptions<Schema>,
): Promise<z.infer<Schema>> {
  const { schema, method = 'GET', body, signal, timeoutMs = defaultRequestTimeoutMs } = options;
  const encoded = encodeBody(body);
  const answer = await exchange(
    `${apiBasePath}${path}`,
    { method, ...encoded, headers: { ...options.headers, ...encoded.headers } },
    { signal, timeoutMs, accessToken: options.accessToken },
  );

  if (!answer.ok && !options.answerStatuses?.includes(answer.status)) {
    throw failureOf(answer.status, answer.payload);
  }
  const parsed = schema.safeParse(answer.payload);
  if (!parsed.success) {
    throw new ApiRequestError({
      status: answer.status,
      code: 'UNEXPECTED_RESPONSE',
      message: `Answer of ${method} ${path} does not match its contract`,
      cause: parsed.error,
    });
  }
  return parsed.data;
}

/** Fetches `/api/v1{path}` as bytes (a photo), with the same authentication and errors as {@link apiRequest}. */
export async function apiBlob(
  path: string,
  { signal, timeoutMs = defaultRequestTimeoutMs }: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<Blob> {
  const answer = await exchange(
    `${apiBasePath}${path}`,
    { method: 'GET' },
    { signal, timeoutMs, accessToken: undefined },
    'blob',
  );
  if (!answer.ok) throw failureOf(answer.status, answer.payload);
  if (!(answer.payload instanceof Blob)) throw failureOf(answer.status, undefined);
  return answer.payload;
}

function encodeBody(body: unknown): { headers: Record<string, string>; body?: BodyInit } {
  if (body === undefined) return { headers: { accept: 'application/json' } };
  // The browser writes the content type of these itself (with the multipart boundary).
  if (body instanceof FormData || body instanceof URLSearchParams) {
    return { headers: { accept: 'application/json' }, body };
  }
  return {
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  };
}

/** The bearer token of the session, when there is one. */
function withAuthorization(headers: HeadersInit | undefined, explicitToken: string | undefined) {
  const token = explicitToken ?? apiAuth()?.accessToken();
  return { ...(headers as Record<string, string>), ...(token ? { authorization: `Bearer ${token}` } : {}) };
}

/** The error of a failed answer; a 401 UNAUTHENTICATED also ends the session (spec §4). */
function failureOf(status: number, payload: unknown): ApiRequestError {
  const error = errorFromAnswer(status, payload);
  if (error.status === 401 && error.code === 'UNAUTHENTICATED') apiAuth()?.onUnauthenticated();
  return error;
}

interface Answer {
  status: number;
  ok: boolean;
  payload: unknown;
}

/** Sends the request and reads the whole body, both within the timeout. */
async function exchange(
  url: string,
  init: RequestInit,
  {
    signal,
    timeoutMs,
    accessToken,
  }: { signal: AbortSignal | undefined; timeoutMs: number; accessToken: string | undefined },
  read: 'json' | 'blob' = 'json',
): Promise<Answer> {
  // One controller carries both the caller's cancellation and the timeout; the flag tells them
  // apart so a timeout becomes TIMEOUT while a cancellation stays an AbortError for TanStack Query.
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const forwardAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) controller.abort(signal.reason);
  signal?.addEventListener('abort', forwardAbort, { once: true });

  try {
    const response = await fetch(url, {
      ...init,
      headers: withAuthorization(init.headers, accessToken),
      signal: controller.signal,
    });
    const payload = read === 'blob' && response.ok ? await response.blob() : parseJson(await response.text());
    return { status: response.status, ok: response.ok, payload };
  } catch (error) {
    if (timedOut) {
      throw new ApiRequestError({
        status: 0,
        code: 'TIMEOUT',
        message: `No answer from ${url} within ${timeoutMs} ms`,
        cause: error,
      });
    }
    if (signal?.aborted) throw error;
    throw new ApiRequestError({
      status: 0,
      code: 'NETWORK_ERROR',
      message: `Could not reach ${url}`,
      cause: error,
    });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forwardAbort);
  }
}

/** The body as JSON, or undefined when there is none or it is not JSON (e.g. a proxy's HTML page). */
function parseJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function errorFromAnswer(status: number, payload: unknown): ApiRequestError {
  const apiError = apiErrorSchema.safeParse(payload);
  if (apiError.success) {
    return new ApiRequestError({
      status,
      code: apiError.data.code,
      message: apiError.data.message,
      errorId: apiError.data.errorId,
      details: apiError.data.details,
    });
  }
  return new ApiRequestError({
    status,
    code: 'UNEXPECTED_RESPONSE',
    message: `HTTP ${status} with a body that is not an API error`,
  });
}
