import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { routes } from '../../app/routes';
import { renderRoutes } from '../../test/renderRoutes';
import { stubApi } from '../../test/stubApi';

vi.mock('../../captcha/AltchaWidget', async () => ({
  AltchaWidget: (await import('../../test/mockAltchaWidget')).MockAltchaWidget,
}));

async function fill(email: string, password: string, passConf: string) {
  await userEvent.type(screen.getByLabelText(/^E-mail/), email);
  await userEvent.type(screen.getByLabelText(/^Password/), password);
  await userEvent.type(screen.getByLabelText(/^Confirm password/), passConf);
}

describe('register screen', () => {
  it('shows the messages of spec §5 before sending anything', async () => {
    const fetchMock = stubApi();
    await renderRoutes(routes, { initialEntries: ['/auth/register'] });

    await fill('ab', 'short', 'other');
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));

    expect(await screen.findByText('Use at least 3 characters')).toBeInTheDocument();
    expect(
      screen.getByText(
        'Password must be 8-64 characters, and contain at least one uppercase letter, one lowercase letter, one number and one special character',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Password and confirm password do not match')).toBeInTheDocument();
    expect(screen.getByText('Please verify that you are not a robot')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/v1/auth/register')).toBe(false);
  });

  it('says an address in use under the e-mail field', async () => {
    stubApi({ '/api/v1/auth/register': { status: 409, body: { code: 'EMAIL_IN_USE', message: 'x' } } });
    await renderRoutes(routes, { initialEntries: ['/auth/register'] });

    await fill('ada@example.com', 'Secret-12', 'Secret-12');
    await userEvent.click(await screen.findByRole('button', { name: 'Solve captcha' }));
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));

    expect(await screen.findByText('This e-mail address is already in use')).toBeInTheDocument();
  });

  it('trims the e-mail, registers, then shows the three steps with the address', async () => {
    const fetchMock = stubApi({
      '/api/v1/auth/register': {
        status: 201,
        body: { user: { id: 'u1', email: 'ada@example.com', status: 'pending_verification' } },
      },
    });
    await renderRoutes(routes, { initialEntries: ['/auth/register'] });

    await fill('  Ada@Example.com ', 'Secret-12', 'Secret-12');
    await userEvent.click(await screen.findByRole('button', { name: 'Solve captcha' }));
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));

    expect(await screen.findByRole('heading', { name: "You're almost in..." })).toBeInTheDocument();
    expect(screen.getByTestId('registered-email')).toHaveTextContent('ada@example.com');
    const sent = fetchMock.mock.calls.find(([url]) => url === '/api/v1/auth/register')?.[1]?.body;
    expect(JSON.parse(sent as string)).toMatchObject({
      email: 'ada@example.com',
      reCaptchaKey: 'solved-captcha',
      registeredAs: 'api',
    });
    expect(
      screen.getByText('Open the verification e-mail (check your spam folder too).'),
    ).toBeInTheDocument();
    expect(screen.getByText('Click the verify link.')).toBeInTheDocument();
  });
});
