import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../app/routes';
import { sampleSettings } from '../../test/fixtures';
import { renderRoutes } from '../../test/renderRoutes';
import { stubApi } from '../../test/stubApi';

const successPath = '/payment/success/cs_test_1';

async function openSuccess() {
  const view = await renderRoutes(routes, { initialEntries: [successPath], signedIn: true });
  await screen.findByRole('heading', { level: 1, name: 'Payment successful' });
  return view;
}

const countdown = () => screen.getByRole('timer');

/** Lets the simulated intervals run for that long, inside React's act. */
async function tick(ms: number) {
  await act(async () => {
    vi.advanceTimersByTime(ms);
    await Promise.resolve();
  });
}

beforeEach(() => {
  // Only the intervals are simulated (the countdown and the balance poll); promises and the
  // testing library's own timeouts run for real.
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('payment success page', () => {
  it('counts down from 10 seconds, then goes to Getting started', async () => {
    stubApi();
    const { router } = await openSuccess();

    expect(countdown()).toHaveTextContent('Taking you to Getting started in 10 seconds…');
    await tick(1000);
    expect(countdown()).toHaveTextContent('in 9 seconds');
    await tick(8000);
    expect(countdown()).toHaveTextContent('in 1 second…');
    expect(router.state.location.pathname).toBe(successPath);

    await tick(1000);

    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/home'));
  });

  it('goes to Getting started at once with Continue', async () => {
    stubApi();
    const { router } = await openSuccess();

    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));

    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/home'));
  });

  it('shows the balance rise once the webhook credited the payment, in the sidebar too', async () => {
    stubApi();
    await openSuccess();
    expect(await screen.findByTestId('landing-balance')).toHaveTextContent('$4.89');

    const credited = { ...sampleSettings, thirdPartyApi: { credits: { ceiling: 2500, currentUsage: 11 } } };
    const fetchMock = stubApi({ '/api/v1/settings': { body: credited } });
    await tick(2000);

    await vi.waitFor(() => expect(screen.getByTestId('landing-balance')).toHaveTextContent('$24.89'));
    const sidebar = within(screen.getByRole('navigation', { name: 'Main navigation' }));
    expect(sidebar.getByTestId('credit-balance')).toHaveTextContent('$24.89');
    expect(fetchMock).toHaveBeenCalledWith('/api/v1/settings', expect.anything());
  });

  it('shows the breadcrumbs of spec §2 and the session reference', async () => {
    stubApi();
    await openSuccess();

    const trail = within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
    expect(trail.getByRole('link', { name: 'Billing' })).toHaveAttribute('href', '/billing');
    expect(trail.getByText('Payment successful')).toHaveAttribute('aria-current', 'page');
    expect(screen.getByText('Reference: cs_test_1')).toBeInTheDocument();
    expect(document.title).toContain('Payment successful');
  });
});
