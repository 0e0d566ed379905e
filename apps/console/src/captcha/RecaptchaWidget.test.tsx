import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { routes } from '../app/routes';
import { renderRoutes } from '../test/renderRoutes';
import { stubApi } from '../test/stubApi';
import type { Grecaptcha } from './loadRecaptcha';

const scriptUrl = 'https://www.google.com/recaptcha/api.js';

/**
 * Google's script cannot run here: this stands in for what it does once loaded — render a
 * checkbox into the element, and hand the site's callback a token when it is ticked.
 */
function answerScriptLoad() {
  const rendered: { sitekey: string }[] = [];
  const grecaptcha: Grecaptcha = {
    render(container, parameters) {
      rendered.push({ sitekey: parameters.sitekey });
      const checkbox = document.createElement('button');
      checkbox.type = 'button';
      checkbox.textContent = "I'm not a robot";
      checkbox.onclick = () => parameters.callback('recaptcha-token-1');
      container.append(checkbox);
      return rendered.length;
    },
    reset: () => undefined,
  };
  window.grecaptcha = grecaptcha;
  window.verbatimRecaptchaLoaded?.();
  return rendered;
}

afterEach(() => {
  delete window.grecaptcha;
});

describe('reCAPTCHA', () => {
  it('loads the configured script in the interface language and sends its token with the form', async () => {
    const fetchMock = stubApi({
      '/api/v1/auth/captcha': { body: { provider: 'recaptcha', siteKey: 'site-key-1', scriptUrl } },
      '/api/v1/auth/register': {
        status: 201,
        body: { user: { id: 'u1', email: 'ada@example.com', status: 'pending_verification' } },
      },
    });
    await renderRoutes(routes, { initialEntries: ['/auth/register'] });

    await waitFor(() => expect(document.head.querySelector(`script[src^="${scriptUrl}"]`)).not.toBeNull());
    const src = new URL(
      document.head.querySelector<HTMLScriptElement>(`script[src^="${scriptUrl}"]`)?.src ?? '',
    );
    expect(Object.fromEntries(src.searchParams)).toEqual({
      onload: 'verbatimRecaptchaLoaded',
      render: 'explicit',
      hl: 'en',
    });
    const rendered = answerScriptLoad();
    await waitFor(() => expect(rendered).toEqual([{ sitekey: 'site-key-1' }]));

    await userEvent.type(screen.getByLabelText(/^E-mail/), 'ada@example.com');
    await userEvent.type(screen.getByLabelText(/^Password/), 'Sup3r$ecret');
    await userEvent.type(screen.getByLabelText(/^Confirm password/), 'Sup3r$ecret');
    await userEvent.click(await screen.findByRole('button', { name: "I'm not a robot" }));
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));

    await screen.findByRole('heading', { name: "You're almost in..." });
    await waitFor(() => {
      const [, init] = fetchMock.mock.calls.find(([url]) => url === '/api/v1/auth/register') ?? [];
      expect(JSON.parse(init?.body as string)).toMatchObject({ reCaptchaKey: 'recaptcha-token-1' });
    });
  });
});
