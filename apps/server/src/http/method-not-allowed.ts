import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors/app-error.js';
import { routesOf, type RouteSummary } from './route-list.js';

/** A route's URL pattern (`/api/v1/keys/:id`, `/oidc/*`) as a regular expression over a path. */
function patternOf(url: string): RegExp {
  const source = url
    .replace(/\/+$/, '')
    .split(/(:\w+(?:\([^)]*\))?|\*)/)
    .map((part) => {
      if (part === '*') return '.*';
      if (part.startsWith(':')) return '[^/]+';
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${source}/?$`);
}

/** How many parameters and wildcards a route pattern has: the fewer, the more specific. */
const looseness = (url: string) => (url.match(/:\w+|\*/g) ?? []).length;

/**
 * The methods of the resource at `pathname`, in a stable order: those of the most specific route
 * patterns that match it (`/media/recordings` before `/media/:fileId`), as the document lists them.
 */
export function methodsAt(routes: readonly RouteSummary[], pathname: string): string[] {
  const matching = routes.filter((route) => patternOf(route.url).test(pathname));
  const mostSpecific = Math.min(...matching.map((route) => looseness(route.url)));
  const methods = new Set<string>();
  for (const route of matching) if (looseness(route.url) === mostSpecific) methods.add(route.method);
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}

/**
 * A request for an API path that exists, with a method it does not have (TRACE, QUERY, PATCH…),
 * answers 405 METHOD_NOT_ALLOWED with the methods it has in `Allow` (RFC 9110 §15.5.6), before
 * anything reads its body; paths that do not exist at all stay 404 ROUTE_NOT_FOUND.
 */
export function registerMethodNotAllowed(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (!request.is404) return;
    const pathname = request.url.split('?')[0] ?? '/';
    if (!pathname.startsWith('/api/')) return;
    const allowed = methodsAt(
      routesOf(app).filter((route) => route.url.startsWith('/api/')),
      pathname,
    );
    if (allowed.length === 0) return;
    reply.header('allow', allowed.join(', '));
    throw new AppError(
      'METHOD_NOT_ALLOWED',
      `${pathname} does not take ${request.method}; it takes ${allowed.join(', ')}.`,
    );
  });
}
