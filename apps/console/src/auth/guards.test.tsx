import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../app/routes';
import { renderRoutes } from '../test/renderRoutes';
import { stubApi } from '../test/stubApi';
import { testSession } from '../test/testSession';

beforeEach(() => {
  stubApi();
});

describe('route guards', () => {
  it('send a signed-out visitor of a protected route to the login page, remembering path and query', async () => {
    const { router, session } = await renderRoutes(routes, { initialEntries: ['/home?tab=x'] });

    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/login');
    expect(session.rememberedPath()).toBe('/home?tab=x');
  });

  it('send a signed-in visitor of an auth page to the remembered path, once', async () => {
    const session = await testSession({ signedIn: true });
    session.rememberPath('/home?tab=x');

    const { router } = await renderRoutes(routes, { initialEntries: ['/auth/register'], session });

    expect(await screen.findByRole('heading', { name: 'Getting started', level: 1 })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?tab=x');
    expect(session.rememberedPath()).toBeNull();
  });

  it('lead / and /auth to the login page when signed out', async () => {
    const { router } = await renderRoutes(routes, { initialEntries: ['/auth'] });

    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/login');
  });

  it('do not remember the path after a logout', async () => {
    const session = await testSession({ signedIn: true });
    const { router } = await renderRoutes(routes, { initialEntries: ['/home'], session });
    await screen.findByRole('heading', { name: 'Getting started', level: 1 });

    await session.logout();

    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/login');
    expect(session.rememberedPath()).toBeNull();
  });
});
