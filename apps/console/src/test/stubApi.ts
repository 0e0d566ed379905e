import { vi } from 'vitest';
import {
  sampleCaptchaConfig,
  sampleConsoleConfig,
  sampleProfile,
  sampleReadiness,
  sampleSettings,
} from './fixtures';

export interface StubAnswer {
  status?: number;
  body: unknown;
}

/**
 * Replaces `fetch` with a table of answers by path; unknown paths answer 404 ROUTE_NOT_FOUND like
 * the server does; the query string is not part of the path. A key may name the method too
 * (`'DELETE /api/v1/…'`), which wins over the bare path. The runtime configuration, readiness,
 * profile, settings, captcha and (no) third-party providers answer by default.
 */
export function stubApi(answers: Record<string, StubAnswer> = {}) {
  const table: Record<string, StubAnswer> = {
    '/api/v1/console-config': { body: sampleConsoleConfig },
    '/api/v1/ready': { body: sampleReadiness },
    '/api/v1/profile': { body: sampleProfile },
    '/api/v1/settings': { body: sampleSettings },
    '/api/v1/auth/captcha': { body: sampleCaptchaConfig },
    '/api/v1/auth/external-providers': { body: [] },
    ...answers,
  };
  const fetchMock = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
    const path = url.split('?')[0] ?? url;
    const method = (init?.method ?? 'GET').toUpperCase();
    const answer = table[`${method} ${path}`] ??
      table[path] ?? {
        status: 404,
        body: { code: 'ROUTE_NOT_FOUND', message: `No route ${path}` },
      };
    return Promise.resolve(
      new Response(JSON.stringify(answer.body), {
        status: answer.status ?? 200,
        headers: { 'content-type': 'application/json' },
      }),
    );
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}
