import type { IncomingMessage } from 'node:http';
import type { ErrorCode } from '@verbatim/contracts';
import type Provider from 'oidc-provider';
import { httpStatusOf } from '../../errors/app-error.js';

/**
 * The provider's endpoints under /oidc keep OAuth's error shape (`error`, `error_description`), which
 * third-party clients expect. Their aliases in the API (/api/v1/auth/profile/verify,
 * /api/v1/oauth/device) are documented with the product's error shape instead, so the provider's
 * errors are translated there: same meaning, the product's code and status.
 */

const apiAlias = Symbol('verbatim.api-alias');
type MarkedRequest = IncomingMessage & { [apiAlias]?: true };

/** Marks a request forwarded to the provider from one of its API aliases. */
export function markApiAlias(request: IncomingMessage): void {
  (request as MarkedRequest)[apiAlias] = true;
}

const codeByOAuthError: Record<string, ErrorCode> = {
  invalid_client: 'INVALID_CREDENTIALS',
  invalid_grant: 'BAD_TOKEN',
  expired_token: 'TOKEN_EXPIRED',
  unauthorized_client: 'FORBIDDEN',
  access_denied: 'FORBIDDEN',
  slow_down: 'RATE_LIMITED',
};

/** The product's error body (and status) of an OAuth error body, or undefined when it is not one. */
export function apiErrorOfOAuthError(
  status: number,
  body: unknown,
): { status: number; body: { code: ErrorCode; message: string } } | undefined {
  if (typeof body !== 'object' || body === null || !('error' in body) || 'code' in body) return undefined;
  const { error, error_description: description } = body as { error: unknown; error_description?: unknown };
  if (typeof error !== 'string') return undefined;
  const code: ErrorCode =
    status >= 500
      ? 'INTERNAL_ERROR'
      : (codeByOAuthError[error] ?? (status === 429 ? 'RATE_LIMITED' : 'BAD_REQUEST'));
  const message = typeof description === 'string' && description ? description : error.replace(/_/g, ' ');
  return {
    status: httpStatusOf(code),
    body: { code, message: status >= 500 ? 'Something went wrong on our side.' : message },
  };
}

const translating = new WeakSet<Provider>();

/** Installs the translation; call before the provider's `callback()` is taken (Koa composes then). */
export function translateApiAliasErrors(provider: Provider): void {
  if (translating.has(provider)) return;
  translating.add(provider);
  provider.use(async (ctx, next) => {
    await next();
    if (!(ctx.req as MarkedRequest)[apiAlias] || ctx.status < 400) return;
    const translated = apiErrorOfOAuthError(ctx.status, ctx.body);
    if (!translated) return;
    ctx.status = translated.status;
    ctx.body = translated.body;
  });
}
