import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { documentNavigation } from '../../app/documentNavigation';
import { routes } from '../../app/routes';
import { sampleSettings } from '../../test/fixtures';
import { renderRoutes } from '../../test/renderRoutes';
import { stubApi } from '../../test/stubApi';

vi.mock('../../captcha/AltchaWidget', async () => ({
  AltchaWidget: (await import('../../test/mockAltchaWidget')).MockAltchaWidget,
}));

const tokenPath = '/api/v1/auth/profile/verify';

function jwt(claims: object) {
  return `x.${btoa(JSON.stringify(claims))}.y`;
}

async function fillAndSubmit(password = 'Secret-1') {
  await userEvent.type(screen.getByLabelText(/^E-mail/), 'ada@example.com');
  await userEvent.type(screen.getByLabelText(/^Password/), password);
  await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
}

const assign = vi.fn<(url: string) => void>();

beforeEach(() => {
  vi.spyOn(documentNavigation, 'assign').mockImplementation(assign);
});

describe('login screen', () => {
  it('shows the wrong-credentials message under the password and clears it on edit', async () => {
    stubApi({ [tokenPath]: { status: 401, body: { code: 'INVALID_CREDENTIALS', message: 'x' } } });
    await renderRoutes(routes, { initialEntries: ['/auth/login'] });

    await fillAndSubmit();

    expect(await screen.findByText('Wrong username or password.')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/^Password/), 'x');
    expect(screen.queryByText('Wrong username or password.')).not.toBeInTheDocument();
  });

  it('requires the captcha after a 429, and sends its solution', async () => {
    const fetchMock = stubApi({
      [tokenPath]: { status: 429, body: { code: 'CAPTCHA_REQUIRED', message: 'x' } },
    });
    await renderRoutes(routes, { initialEntries: ['/auth/login'] });

    await fillAndSubmit();
    expect(await screen.findByText('Wrong username or password.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Please verify that you are not a robot')).toBeInTheDocument();

    await userEvent.click(await screen.findByRole('button', { name: 'Solve captcha' }));
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));

    await waitFor(() => {
      const bodies = fetchMock.mock.calls
        .filter(([url]) => url === tokenPath)
        .map(([, init]) => (init?.body as URLSearchParams).toString());
      expect(bodies.at(-1)).toContain('reCaptchaKey=solved-captcha');
    });
  });

  it('sends an account pending approval to its page, without a toast', async () => {
    stubApi({ [tokenPath]: { status: 403, body: { code: 'ACCOUNT_PENDING_APPROVAL', message: 'x' } } });
    const { router } = await renderRoutes(routes, { initialEntries: ['/auth/login'] });

    await fillAndSubmit();

    expect(
      await screen.findByRole('heading', { name: 'Your account is waiting for approval' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/login/pending-approval');
  });

  it('explains an inactive account in place of the general error page', async () => {
    stubApi({ [tokenPath]: { status: 403, body: { code: 'ACCOUNT_INACTIVE', message: 'x' } } });
    await renderRoutes(routes, { initialEntries: ['/auth/login'] });

    await fillAndSubmit();

    expect(await screen.findByRole('alert')).toHaveTextContent('This account is inactive.');
  });

  it('stores the session, follows the language of the settings and reloads to the root', async () => {
    stubApi({
      [tokenPath]: {
        body: {
          access_token: 'new-token',
          token_type: 'Bearer',
          expires_in: 900,
          refresh_token: 'r',
          id_token: jwt({ sub: 'user-1', email: 'ada@example.com' }),
        },
      },
      // Spec §4: after a settings fetch on login, the interface language is switched.
      '/api/v1/settings': { body: { ...sampleSettings, language: 'fr' } },
    });
    const { session, i18n } = await renderRoutes(routes, { initialEntries: ['/auth/login'] });

    await fillAndSubmit();

    await waitFor(() => expect(assign).toHaveBeenCalledWith('/'));
    expect((await session.manager.getUser())?.access_token).toBe('new-token');
    expect(i18n.resolvedLanguage).toBe('fr');
  });
});
