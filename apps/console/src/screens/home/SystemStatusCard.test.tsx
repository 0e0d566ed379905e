import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { routes } from '../../app/routes';
import { renderRoutes } from '../../test/renderRoutes';
import { stubApi } from '../../test/stubApi';

async function statusCard() {
  return within(await screen.findByRole('region', { name: 'System status' }));
}

describe('system status card', () => {
  it('reports a ready service', async () => {
    stubApi();
    await renderRoutes(routes, { initialEntries: ['/home'], signedIn: true });

    const card = await statusCard();
    expect(await card.findByText('Operational')).toBeInTheDocument();
    expect(card.getByText('Connected (3 ms)')).toBeInTheDocument();
    expect(card.getByText('Up to date')).toBeInTheDocument();
  });

  it('reads the failing checks from a 503 answer', async () => {
    stubApi({
      '/api/v1/ready': {
        status: 503,
        body: {
          status: 'not_ready',
          checks: {
            database: { ok: false, detail: 'connection refused' },
            migrations: { ok: false, pending: ['0002_accounts', '0003_keys'] },
            speech: { ok: false, detail: 'No speech model', models: [], workers: 1, busy: 0, waiting: 0 },
            storage: { ok: true, kind: 'local' },
          },
        },
      },
    });
    await renderRoutes(routes, { initialEntries: ['/home'], signedIn: true });

    const card = await statusCard();
    expect(await card.findByText('Degraded')).toBeInTheDocument();
    expect(card.getByText('Unavailable')).toBeInTheDocument();
    expect(card.getByText('2 pending')).toBeInTheDocument();
  });

  it('sends a 500 answer to the general error page with the server error id', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stubApi({
      '/api/v1/ready': {
        status: 500,
        body: { code: 'INTERNAL_ERROR', message: 'Internal server error', errorId: 'err-unit-1' },
      },
    });
    const { router } = await renderRoutes(routes, { initialEntries: ['/home'], signedIn: true });

    expect(await screen.findByTestId('error-id')).toHaveTextContent('err-unit-1');
    expect(router.state.location.pathname).toBe('/error');
    expect(consoleError).toHaveBeenCalledWith(expect.stringContaining('[err-unit-1]'), expect.anything());
  });
});
