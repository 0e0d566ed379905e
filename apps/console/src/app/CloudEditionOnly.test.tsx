import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '../test/renderRoutes';
import { sampleConsoleConfig } from '../test/fixtures';
import { stubApi } from '../test/stubApi';
import { routes } from './routes';

const onPremiseConfig = {
  '/api/v1/console-config': { body: { ...sampleConsoleConfig, edition: 'on_premise' } },
};

function requestedPaths(fetchMock: ReturnType<typeof stubApi>): string[] {
  return fetchMock.mock.calls.map(([input]) =>
    typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
  );
}

describe('billing in the on-premise edition', () => {
  it.each(['/billing', '/billing/history', '/payment', '/payment/success/cs_1'])(
    '%s opened by its address leads to the licence on /on-premise, asking nothing of billing',
    async (path) => {
      const fetchMock = stubApi(onPremiseConfig);
      const { router } = await renderRoutes(routes, { initialEntries: [path], signedIn: true });
      await screen.findByRole(
        'heading',
        { level: 1, name: 'On-premise Speech to Text models' },
        { timeout: 5000 },
      );
      expect(router.state.location.pathname).toBe('/on-premise');
      expect(screen.queryByRole('heading', { name: /Billing/ })).not.toBeInTheDocument();
      expect(
        requestedPaths(fetchMock).filter((url) => /limiter\/(payment|countries|vat|usages)/.test(url)),
      ).toEqual([]);
    },
  );

  it('still opens in the cloud product', async () => {
    stubApi();
    const { router } = await renderRoutes(routes, { initialEntries: ['/billing/history'], signedIn: true });
    await screen.findByRole('heading', { level: 1, name: 'Billing history' });
    expect(router.state.location.pathname).toBe('/billing/history');
  });

  it('Home offers no credit top-up in the on-premise edition, and does in the cloud product', async () => {
    stubApi(onPremiseConfig);
    const onPremise = await renderRoutes(routes, { initialEntries: ['/home'], signedIn: true });
    await screen.findByRole('link', { name: 'Generate an API key' });
    expect(screen.queryByText(/credit/i)).not.toBeInTheDocument();
    onPremise.unmount();

    stubApi();
    await renderRoutes(routes, { initialEntries: ['/home'], signedIn: true });
    expect(await screen.findByRole('link', { name: 'Top up credits' })).toHaveAttribute('href', '/billing');
  });
});

describe('the API keys screen in the on-premise edition', () => {
  it('shows no usage in money, and its example calls a route the edition serves', async () => {
    stubApi({ ...onPremiseConfig, '/api/v1/auth/api-keys': { body: [] } });
    await renderRoutes(routes, { initialEntries: ['/speech-to-text-api'], signedIn: true });
    expect(await screen.findByText(/\/api\/v1\/licensing\/installation/)).toBeInTheDocument();
    expect(screen.getByText(/count against this server's on-premise licence/)).toBeInTheDocument();
    expect(screen.queryByText(/limiter\/usages/)).not.toBeInTheDocument();
    expect(screen.queryByText(/credit/i)).not.toBeInTheDocument();
  });
});
