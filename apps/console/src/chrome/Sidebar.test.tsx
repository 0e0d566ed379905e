import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../app/routes';
import { sampleConsoleConfig, sampleSettings } from '../test/fixtures';
import { renderRoutes } from '../test/renderRoutes';
import { stubApi } from '../test/stubApi';

/** The answer to one path, held back until `release` is called; every other path answers at once. */
function holdBack(path: string, answer: unknown) {
  const fetchMock = stubApi();
  const answerAtOnce = fetchMock.getMockImplementation();
  if (!answerAtOnce) throw new Error('stubApi answers through an implementation');
  let release = (): void => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  fetchMock.mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
    if (url.split('?')[0] !== path) return answerAtOnce(input, init);
    await released;
    return new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } });
  });
  return { release };
}

const sidebar = () => screen.getByRole('navigation', { name: 'Main navigation' });

afterEach(() => {
  vi.unstubAllGlobals();
});

/**
 * Nothing in the sidebar may move once its links are shown: a link that moves under a pointer on its
 * way to it gets someone else's click.
 */
describe('sidebar', () => {
  it('keeps the credit card in place, before the links, while the balance loads', async () => {
    const settings = holdBack('/api/v1/settings', sampleSettings);
    await renderRoutes(routes, { initialEntries: ['/home'], signedIn: true });

    await within(sidebar()).findByRole('link', { name: 'Integrations' });
    const card = within(sidebar()).getByTestId('sidebar-credit');
    expect(within(card).getByLabelText('Loading…')).toBeInTheDocument();
    expect(card.compareDocumentPosition(within(sidebar()).getByRole('link', { name: 'Billing' }))).toBe(
      Node.DOCUMENT_POSITION_FOLLOWING,
    );

    settings.release();

    expect(await within(card).findByTestId('credit-balance')).toHaveTextContent('$');
    expect(within(sidebar()).getByTestId('sidebar-credit')).toBe(card);
  });

  it('shows no link until the edition is known, then the on-premise one without credit or Billing', async () => {
    const config = holdBack('/api/v1/console-config', { ...sampleConsoleConfig, edition: 'on_premise' });
    await renderRoutes(routes, { initialEntries: ['/home'], signedIn: true });

    await screen.findByRole('heading', { level: 1 });
    expect(within(sidebar()).queryByRole('link')).toBeNull();

    config.release();

    await within(sidebar()).findByRole('link', { name: 'Integrations' });
    expect(within(sidebar()).queryByRole('link', { name: 'Billing' })).toBeNull();
    expect(within(sidebar()).queryByTestId('sidebar-credit')).toBeNull();
  });
});
