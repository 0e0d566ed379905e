import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../app/routes';
import { renderRoutes } from '../../test/renderRoutes';
import { stubApi } from '../../test/stubApi';

beforeEach(() => {
  stubApi();
});

describe('not-found screen', () => {
  it('answers any unknown path with the not-found message', async () => {
    await renderRoutes(routes, { initialEntries: ['/no/such/page'] });

    expect(
      await screen.findByRole('heading', { name: "We couldn't find the page you were looking for" }),
    ).toBeInTheDocument();
  });

  it('goes back to the previous page of the history', async () => {
    const { router } = await renderRoutes(routes, {
      initialEntries: ['/error?id=previous-page', '/no/such/page'],
      initialIndex: 1,
    });

    await userEvent.click(await screen.findByRole('link', { name: 'Go back' }));

    expect(router.state.location.pathname).toBe('/error');
    expect(router.state.location.search).toBe('?id=previous-page');
    expect(await screen.findByText('previous-page')).toBeInTheDocument();
  });

  it('goes home when there is no previous page', async () => {
    const { router } = await renderRoutes(routes, { initialEntries: ['/no/such/page'], signedIn: true });

    await userEvent.click(await screen.findByRole('link', { name: 'Go back' }));

    expect(router.state.location.pathname).toBe('/home');
    expect(await screen.findByRole('heading', { name: 'Welcome to Verbatim Test' })).toBeInTheDocument();
  });
});
