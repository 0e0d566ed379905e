import { screen, within } from '@testing-library/react';
import { Outlet, type RouteObject } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RouteHandle } from '../app/routeHandle';
import { renderRoutes } from '../test/renderRoutes';
import { stubApi } from '../test/stubApi';
import { RouteBreadcrumbs } from './RouteBreadcrumbs';

// A nested tree shaped like the future /billing/history, labelled with existing keys.
const routesWithCrumbs: RouteObject[] = [
  {
    element: (
      <>
        <RouteBreadcrumbs />
        <Outlet />
      </>
    ),
    handle: { breadcrumb: { labelKey: 'chrome.breadcrumbs.home', to: '/home' } } satisfies RouteHandle,
    children: [
      { path: '/home', element: <p>home</p> },
      {
        path: '/billing',
        handle: { breadcrumb: { labelKey: 'screens.home.title' } } satisfies RouteHandle,
        children: [
          {
            path: 'history',
            element: <p>history</p>,
            handle: { breadcrumb: { labelKey: 'screens.notFound.title' } } satisfies RouteHandle,
          },
          { path: 'no-crumb', element: <p>no crumb</p> },
        ],
      },
    ],
  },
];

beforeEach(() => {
  stubApi();
});

describe('breadcrumbs', () => {
  it('lists every matched route with a breadcrumb handle, the last one as the current page', async () => {
    await renderRoutes(routesWithCrumbs, { initialEntries: ['/billing/history'] });

    const trail = within(await screen.findByRole('navigation', { name: 'Breadcrumb' }));
    expect(trail.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/home');
    expect(trail.getByRole('link', { name: 'Getting started' })).toHaveAttribute('href', '/billing');
    const current = trail.getByText('Page not found');
    expect(current).toHaveAttribute('aria-current', 'page');
    expect(current.closest('a')).toBeNull();
  });

  it('skips matched routes without a breadcrumb', async () => {
    await renderRoutes(routesWithCrumbs, { initialEntries: ['/billing/no-crumb'] });

    const trail = within(await screen.findByRole('navigation', { name: 'Breadcrumb' }));
    expect(trail.getByRole('link', { name: 'Home' })).toBeInTheDocument();
    expect(trail.getByText('Getting started')).toHaveAttribute('aria-current', 'page');
    expect(trail.queryByText('Page not found')).not.toBeInTheDocument();
  });

  it('shows the home crumb alone on the home screen', async () => {
    await renderRoutes(routesWithCrumbs, { initialEntries: ['/home'] });

    const trail = within(await screen.findByRole('navigation', { name: 'Breadcrumb' }));
    expect(trail.getByText('Home')).toHaveAttribute('aria-current', 'page');
    expect(trail.queryAllByRole('link')).toHaveLength(0);
  });
});
