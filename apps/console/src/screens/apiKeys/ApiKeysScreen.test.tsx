import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ApiKey, CreatedApiKey, Usage } from '@verbatim/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../app/routes';
import { renderRoutes } from '../../test/renderRoutes';
import { stubApi, type StubAnswer } from '../../test/stubApi';

const keysPath = '/api/v1/auth/api-keys';

const activeKey: ApiKey = {
  id: 'key_1',
  prefix: 'vbt_live_AbCdEfG',
  name: 'CI server',
  status: 'active',
  created: '2025-03-04T10:20:30.000Z',
  expiry: null,
  used: null,
  revoked: null,
  monthlyCapCents: 2500,
  spentThisMonthCents: 130,
};

const expiredKey: ApiKey = {
  ...activeKey,
  id: 'key_2',
  prefix: 'vbt_live_ZyXwVuT',
  name: null,
  status: 'expired',
  expiry: '2025-04-01T00:00:00.000Z',
  monthlyCapCents: null,
  spentThisMonthCents: 0,
};

const secret = `vbt_live_${'s'.repeat(49)}`;
const createdKey: CreatedApiKey = { ...activeKey, id: 'key_3', prefix: secret.slice(0, 16), apiKey: secret };

const usages: Usage[] = [
  { name: 'http_api', seconds: 3725, calls: 3, currentUsage: 11, pricePerHourMicros: 100_000 },
  { name: 'ws_streaming', seconds: 0, calls: 0, currentUsage: 0, pricePerHourMicros: 300_000 },
  { name: 'ws_prerecorded', seconds: 0, calls: 0, currentUsage: 0, pricePerHourMicros: 150_000 },
];

function stub(answers: Record<string, StubAnswer> = {}) {
  return stubApi({
    [keysPath]: { body: [activeKey, expiredKey] },
    '/api/v1/limiter/usages': { body: usages },
    ...answers,
  });
}

function requestsTo(fetchMock: ReturnType<typeof stubApi>, method: string, path: string) {
  return fetchMock.mock.calls.filter(([input, init]) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return url.split('?')[0] === path && (init?.method ?? 'GET') === method;
  });
}

/** The JSON body the console sent. */
function sentBody(init: RequestInit | undefined): unknown {
  return typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
}

async function openScreen() {
  const view = await renderRoutes(routes, { initialEntries: ['/speech-to-text-api'], signedIn: true });
  await screen.findByRole('heading', { level: 1, name: 'Speech-to-text API' });
  return view;
}

let writeText: ReturnType<typeof vi.fn<(text: string) => Promise<void>>>;
beforeEach(() => {
  writeText = vi.fn<(text: string) => Promise<void>>(() => Promise.resolve());
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('speech-to-text API screen', () => {
  it('lists the keys by prefix with their dates, cap and status, and the breadcrumbs', async () => {
    stub();
    await openScreen();

    const firstRow = within(await screen.findByTestId('api-key-key_1'));
    expect(firstRow.getByText('vbt_live_AbCdEfG…')).toBeInTheDocument();
    expect(firstRow.getByText('CI server')).toBeInTheDocument();
    expect(firstRow.getByText(/^2025-03-0\d \d\d:\d0:30$/)).toBeInTheDocument();
    expect(firstRow.getByText('$1.30 of $25.00')).toBeInTheDocument();
    expect(firstRow.getByText('Active')).toBeInTheDocument();
    const secondRow = within(screen.getByTestId('api-key-key_2'));
    expect(secondRow.getByText('Expired')).toBeInTheDocument();
    // Empty values show "-": no name, never used, no cap.
    expect(secondRow.getAllByText('-')).toHaveLength(3);

    const trail = within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
    expect(trail.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/home');
    expect(trail.getByText('Speech-to-text API')).toHaveAttribute('aria-current', 'page');
    expect(document.title).toMatch(/^Speech-to-text API · /);
  });

  it("is where Getting started's Generate an API key leads", async () => {
    stub();
    const { router } = await renderRoutes(routes, { initialEntries: ['/home'], signedIn: true });
    await userEvent.click(await screen.findByRole('link', { name: 'Generate an API key' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Speech-to-text API' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/speech-to-text-api');
  });

  it('says so when there is no key yet', async () => {
    stub({ [keysPath]: { body: [] } });
    await openScreen();
    expect(await screen.findByText('No API keys yet')).toBeInTheDocument();
  });

  it('generates a key, shows its secret once with a copy button, and keeps Generate disabled until closed', async () => {
    const fetchMock = stub({ [`POST ${keysPath}`]: { status: 201, body: createdKey } });
    await openScreen();
    await userEvent.click(screen.getByRole('button', { name: 'Generate API key' }));
    const modal = within(await screen.findByRole('dialog', { name: 'Generate API key' }));

    await userEvent.type(modal.getByLabelText('Name (optional)'), 'CI server');
    await userEvent.type(modal.getByLabelText('Monthly spending cap (optional)'), '25');
    await userEvent.click(modal.getByRole('button', { name: 'Generate' }));

    expect(await modal.findByTestId('new-api-key')).toHaveTextContent(secret);
    expect(await screen.findByText('API key generated')).toBeInTheDocument();
    const [, init] = requestsTo(fetchMock, 'POST', keysPath)[0] ?? [];
    expect(sentBody(init)).toEqual({
      name: 'CI server',
      expiresAt: null,
      monthlyCapCents: 2500,
    });
    expect(modal.getByRole('button', { name: 'Generate' })).toBeDisabled();
    await userEvent.click(modal.getByRole('button', { name: 'Copy key' }));
    expect(writeText).toHaveBeenCalledWith(secret);
    expect(await modal.findByRole('button', { name: 'Copied' })).toBeInTheDocument();
    // The list is fetched again to show the new key.
    await waitFor(() => expect(requestsTo(fetchMock, 'GET', keysPath).length).toBeGreaterThan(1));

    await userEvent.click(modal.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await userEvent.click(screen.getByRole('button', { name: 'Generate API key' }));
    const reopened = within(await screen.findByRole('dialog', { name: 'Generate API key' }));
    expect(reopened.queryByTestId('new-api-key')).not.toBeInTheDocument();
    expect(reopened.getByLabelText('Name (optional)')).toHaveValue('');
    expect(reopened.getByRole('button', { name: 'Generate' })).toBeEnabled();
  });

  it('sends an expiry date as the end of that day, and checks the fields first', async () => {
    const fetchMock = stub({ [`POST ${keysPath}`]: { status: 201, body: createdKey } });
    await openScreen();
    await userEvent.click(screen.getByRole('button', { name: 'Generate API key' }));
    const modal = within(await screen.findByRole('dialog', { name: 'Generate API key' }));

    await userEvent.type(modal.getByLabelText('Expires on (optional)'), '2001-01-01');
    await userEvent.type(modal.getByLabelText('Monthly spending cap (optional)'), '0');
    await userEvent.click(modal.getByRole('button', { name: 'Generate' }));
    expect(await modal.findByText('Choose a day from today to 5 years from now')).toBeInTheDocument();
    expect(modal.getByText('Enter an amount from $0.01 to $1,000,000')).toBeInTheDocument();
    expect(requestsTo(fetchMock, 'POST', keysPath)).toHaveLength(0);

    const nextYear = new Date().getFullYear() + 1;
    await userEvent.clear(modal.getByLabelText('Expires on (optional)'));
    await userEvent.type(modal.getByLabelText('Expires on (optional)'), `${nextYear}-06-15`);
    await userEvent.clear(modal.getByLabelText('Monthly spending cap (optional)'));
    await userEvent.click(modal.getByRole('button', { name: 'Generate' }));
    await modal.findByTestId('new-api-key');
    const [, init] = requestsTo(fetchMock, 'POST', keysPath)[0] ?? [];
    const body = sentBody(init) as { expiresAt: string; monthlyCapCents: null };
    expect(new Date(body.expiresAt).getTime()).toBe(new Date(nextYear, 5, 15, 23, 59, 59).getTime());
    expect(body.monthlyCapCents).toBeNull();
  });

  it('toasts a failed generation and puts the reason of a 400 under its field', async () => {
    stub({
      [`POST ${keysPath}`]: {
        status: 400,
        body: {
          code: 'VALIDATION_FAILED',
          message: 'The request is not valid.',
          details: [
            { location: 'body', path: ['expiresAt'], message: 'The expiry date must lie in the future' },
          ],
        },
      },
    });
    await openScreen();
    await userEvent.click(screen.getByRole('button', { name: 'Generate API key' }));
    const modal = within(await screen.findByRole('dialog', { name: 'Generate API key' }));
    await userEvent.click(modal.getByRole('button', { name: 'Generate' }));

    expect(await screen.findByText('API key generation failed')).toBeInTheDocument();
    expect(modal.getByText('The expiry date must lie in the future')).toBeInTheDocument();
    expect(modal.getByRole('button', { name: 'Generate' })).toBeEnabled();
  });

  it('revokes a key after confirmation', async () => {
    const fetchMock = stub({ [`DELETE ${keysPath}/key_1`]: { status: 204, body: undefined } });
    await openScreen();
    await userEvent.click(await screen.findByRole('button', { name: 'Revoke the key vbt_live_AbCdEfG' }));
    const modal = within(await screen.findByRole('dialog', { name: 'Revoke API key' }));
    expect(modal.getByText('vbt_live_AbCdEfG…')).toBeInTheDocument();
    expect(requestsTo(fetchMock, 'DELETE', `${keysPath}/key_1`)).toHaveLength(0);

    await userEvent.click(modal.getByRole('button', { name: 'Revoke' }));

    expect(await screen.findByText('API key revoked')).toBeInTheDocument();
    expect(requestsTo(fetchMock, 'DELETE', `${keysPath}/key_1`)).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('toasts a failed revocation and keeps the confirmation open', async () => {
    stub({
      [`DELETE ${keysPath}/key_1`]: {
        status: 404,
        body: { code: 'NOT_FOUND', message: 'There is no such API key.' },
      },
    });
    await openScreen();
    await userEvent.click(await screen.findByRole('button', { name: 'Revoke the key vbt_live_AbCdEfG' }));
    const modal = within(await screen.findByRole('dialog', { name: 'Revoke API key' }));
    await userEvent.click(modal.getByRole('button', { name: 'Revoke' }));

    expect(await screen.findByText('API key revocation failed')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Revoke API key' })).toBeInTheDocument();
  });

  it('shows how to authenticate with copyable examples for this address, and usage with prices', async () => {
    stub();
    await openScreen();
    const example = screen.getByTestId('auth-example-bearer');
    expect(example).toHaveTextContent(
      `curl -H "Authorization: Bearer $VERBATIM_API_KEY" ${window.location.origin}/api/v1/limiter/usages`,
    );
    expect(screen.getByTestId('auth-example-header')).toHaveTextContent('x-api-key: $VERBATIM_API_KEY');
    const guide = within(screen.getByRole('region', { name: 'How to authenticate' }));
    await userEvent.click(guide.getAllByRole('button', { name: 'Copy' })[0] as HTMLElement);
    expect(writeText).toHaveBeenCalledWith(example.textContent);

    const usage = within(screen.getByRole('region', { name: 'Usage and prices' }));
    const httpRow = within((await usage.findByText('HTTP API')).closest('tr') as HTMLElement);
    expect(httpRow.getByText('$0.10 / hour')).toBeInTheDocument();
    expect(httpRow.getByText('01:02:05')).toBeInTheDocument();
    expect(httpRow.getByText('$0.11')).toBeInTheDocument();
  });

  it('says why copying failed', async () => {
    writeText.mockRejectedValueOnce(new Error('Write permission denied.'));
    stub();
    await openScreen();
    const guide = within(screen.getByRole('region', { name: 'How to authenticate' }));
    await userEvent.click(guide.getAllByRole('button', { name: 'Copy' })[0] as HTMLElement);
    expect(await guide.findByRole('alert')).toHaveTextContent('Could not copy: Write permission denied.');
  });
});

describe('sidebar credit', () => {
  it('shows the remaining credit in dollars and polls it every 300000 ms', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fetchMock = stub();
    await renderRoutes(routes, { initialEntries: ['/home'], signedIn: true });
    const sidebar = within(await screen.findByRole('navigation', { name: 'Main navigation' }));
    // (500 − 11) / 100 dollars.
    expect(await sidebar.findByTestId('credit-balance')).toHaveTextContent('$4.89');
    expect(sidebar.getByRole('link', { name: 'Speech-to-text API' })).toHaveAttribute(
      'href',
      '/speech-to-text-api',
    );
    const polls = () => requestsTo(fetchMock, 'GET', '/api/v1/settings').length;
    const before = polls();

    await vi.advanceTimersByTimeAsync(299_000);
    expect(polls()).toBe(before);
    await vi.advanceTimersByTimeAsync(2_000);
    await waitFor(() => expect(polls()).toBe(before + 1));
  });
});

describe('language switch when signed in', () => {
  it('saves the language in the settings', async () => {
    const fetchMock = stub();
    await renderRoutes(routes, { initialEntries: ['/home'], signedIn: true });
    await screen.findByRole('heading', { name: 'Welcome to Verbatim Test' });

    await userEvent.click(screen.getByRole('radio', { name: 'Français' }));

    await screen.findByRole('heading', { name: 'Bienvenue sur Verbatim Test' });
    await waitFor(() => expect(requestsTo(fetchMock, 'PUT', '/api/v1/settings')).toHaveLength(1));
    const [, init] = requestsTo(fetchMock, 'PUT', '/api/v1/settings')[0] ?? [];
    expect(sentBody(init)).toEqual({ language: 'fr' });
  });
});
