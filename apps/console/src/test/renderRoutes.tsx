import { render } from '@testing-library/react';
import { createMemoryRouter, type InitialEntry, type RouteObject, RouterProvider } from 'react-router';
import { createQueryClient } from '../api/queryClient';
import { AppProviders } from '../app/AppProviders';
import { routes as appRoutes } from '../app/routes';
import type { AuthSession } from '../auth/AuthSession';
import { createI18n } from '../i18n/createI18n';
import { showGeneralErrorWith } from '../screens/generalError/generalErrorLocation';
import { testSession } from './testSession';

export interface RenderRoutesOptions {
  initialEntries?: InitialEntry[];
  initialIndex?: number;
  /** Signed out on memory storage unless given; `signedIn: true` makes a signed-in one. */
  session?: AuthSession;
  signedIn?: boolean;
}

/**
 * The route table with every lazy route's module loaded and put in place, as the static imports
 * were before screens were split: a test renders at once what it tests, without waiting for the
 * first import of each screen (the browser journeys exercise the lazy loading itself).
 */
async function withLazyRoutesLoaded(routes: readonly RouteObject[]): Promise<RouteObject[]> {
  return Promise.all(
    routes.map(async (route): Promise<RouteObject> => {
      const children = route.children && (await withLazyRoutesLoaded(route.children));
      if (typeof route.lazy !== 'function') return { ...route, children } as RouteObject;
      const loaded = await route.lazy();
      return { ...route, ...loaded, lazy: undefined, children } as RouteObject;
    }),
  );
}

// Imported with the test file, outside any test's time limit, as the static imports were.
await withLazyRoutesLoaded(appRoutes);

/** Renders a route table in a memory router with the app's real providers and query client. */
export async function renderRoutes(routes: RouteObject[], options: RenderRoutesOptions = {}) {
  const i18n = await createI18n();
  const session = options.session ?? (await testSession({ signedIn: options.signedIn ?? false }));
  const router = createMemoryRouter(await withLazyRoutesLoaded(routes), {
    initialEntries: options.initialEntries ?? ['/'],
    initialIndex: options.initialIndex,
  });
  const queryClient = createQueryClient({ i18n, onGlobalFailure: showGeneralErrorWith(router) });
  const view = render(
    <AppProviders i18n={i18n} queryClient={queryClient} session={session}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, i18n, queryClient, session };
}
