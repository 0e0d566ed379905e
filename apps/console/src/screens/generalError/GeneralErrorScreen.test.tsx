import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../app/routes';
import { renderRoutes } from '../../test/renderRoutes';
import { stubApi } from '../../test/stubApi';

const generalErrorMessage = 'General error! Something went wrong, please try again later or contact us';

beforeEach(() => {
  stubApi();
});

describe('general error page', () => {
  it('shows the message and the error id given in the query', async () => {
    await renderRoutes(routes, { initialEntries: ['/error?id=err-123'] });

    expect(await screen.findByRole('heading', { name: generalErrorMessage })).toBeInTheDocument();
    expect(screen.getByTestId('error-id')).toHaveTextContent('err-123');
  });

  it('prefers the error id carried in the navigation state', async () => {
    await renderRoutes(routes, {
      initialEntries: [{ pathname: '/error', search: '?id=from-query', state: { errorId: 'from-state' } }],
    });

    expect(await screen.findByTestId('error-id')).toHaveTextContent('from-state');
  });

  it('shows no id line when there is no id', async () => {
    await renderRoutes(routes, { initialEntries: ['/error'] });

    expect(await screen.findByRole('heading', { name: generalErrorMessage })).toBeInTheDocument();
    expect(screen.queryByTestId('error-id')).not.toBeInTheDocument();
  });

  it('leads home with Go Home', async () => {
    const { router } = await renderRoutes(routes, { initialEntries: ['/error?id=err-123'], signedIn: true });

    await userEvent.click(await screen.findByRole('link', { name: 'Go Home' }));

    expect(router.state.location.pathname).toBe('/home');
  });

  it('offers the contact link of the installation', async () => {
    await renderRoutes(routes, { initialEntries: ['/error?id=err-123'] });

    expect(await screen.findByRole('link', { name: /Contact us/ })).toHaveAttribute(
      'href',
      'https://example.com/contact',
    );
  });
});
