import { Outlet, redirect, type RouteObject, ScrollRestoration } from 'react-router';
import { AppLayout } from '../chrome/AppLayout';
import { PublicLayout } from '../chrome/PublicLayout';
import { GeneralErrorScreen } from '../screens/generalError/GeneralErrorScreen';
import { RouteErrorScreen } from '../screens/generalError/RouteErrorScreen';
import { HomeScreen } from '../screens/home/HomeScreen';
import { NotFoundScreen } from '../screens/notFound/NotFoundScreen';
import { generalErrorPath, homePath } from './paths';
import type { RouteHandle } from './routeHandle';
import { RouteMetadata } from './RouteMetadata';

/** The console's route table (spec §2), limited to the screens whose features exist. */
export const routes: RouteObject[] = [
  {
    element: <RootRoute />,
    errorElement: <RouteErrorScreen />,
    children: [
      { index: true, loader: () => redirect(homePath) },
      {
        element: <AppLayout />,
        handle: { breadcrumb: { labelKey: 'chrome.breadcrumbs.home', to: homePath } } satisfies RouteHandle,
        children: [
          {
            path: homePath,
            element: <HomeScreen />,
            handle: {
              titleKey: 'screens.home.title',
              descriptionKey: 'screens.home.description',
            } satisfies RouteHandle,
          },
        ],
      },
      {
        element: <PublicLayout />,
        children: [
          {
            path: generalErrorPath,
            element: <GeneralErrorScreen />,
            handle: {
              titleKey: 'screens.generalError.title',
              descriptionKey: 'screens.generalError.description',
            } satisfies RouteHandle,
          },
          {
            path: '*',
            element: <NotFoundScreen />,
            handle: {
              titleKey: 'screens.notFound.title',
              descriptionKey: 'screens.notFound.description',
            } satisfies RouteHandle,
          },
        ],
      },
    ],
  },
];

function RootRoute() {
  return (
    <>
      <RouteMetadata />
      <ScrollRestoration />
      <Outlet />
    </>
  );
}
