import type { FastifyInstance } from 'fastify';

export interface RouteSummary {
  method: string;
  url: string;
  /** Left out of the OpenAPI document (the document itself, static files). */
  hidden: boolean;
}

const routesByApp = new WeakMap<FastifyInstance, RouteSummary[]>();

/** Records every route as it is registered; call before registering any. */
export function recordRoutes(app: FastifyInstance): void {
  const routes: RouteSummary[] = [];
  routesByApp.set(app, routes);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const hidden = Boolean(route.schema?.hide);
    for (const method of methods) routes.push({ method, url: route.url, hidden });
  });
}

export function routesOf(app: FastifyInstance): readonly RouteSummary[] {
  return routesByApp.get(app) ?? [];
}
