import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { documentNavigation } from '../../app/documentNavigation';
import { routes } from '../../app/routes';
import { renderRoutes } from '../../test/renderRoutes';
import { stubApi } from '../../test/stubApi';

const tokenPath = '/api/v1/auth/profile/verify';
const providersPath = '/api/v1/auth/external-providers';
const googleUrlPath = '/api/v1/auth/external-providers/google/authorization-url';
const google = { id: 'google', name: 'Google' };
const github = { id: 'github', name: 'GitHub' };

const assign = vi.fn<(url: string) => void>();

beforeEach(() => {
  vi.spyOn(documentNavigation, 'assign').mockImplementation(assign);
});
afterEach(() => sessionStorage.clear());

const tokens = {
  access_token: 'external-token',
  token_type: 'Bearer',
  expires_in: 900,
  refresh_token: 'r',
  id_token: `x.${btoa(JSON.stringify({ sub: 'user-1', email: 'ada@gmail.test' }))}.y`,
};

const urlOf = (input: RequestInfo | URL) =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;

function callsTo(fetchMock: ReturnType<typeof stubApi>, path: string) {
  return fetchMock.mock.calls.filter(([input]) => urlOf(input).split('?')[0] === path);
}

/** The query of the first call to `path`. */
function queryOf(fetchMock: ReturnType<typeof stubApi>, path: string) {
  const [input] = callsTo(fetchMock, path)[0] ?? [];
  return new URL(input ? urlOf(input) : '/', 'http://localhost').searchParams;
}

/** Starts a Google sign-in from the login page and returns the state it sent. */
async function startGoogleSignIn(fetchMock: ReturnType<typeof stubApi>): Promise<string> {
  await userEvent.click(await screen.findByRole('button', { name: 'Continue with Google' }));
  await waitFor(() => expect(assign).toHaveBeenCalledWith('https://google.test/authorize'));
  const state = queryOf(fetchMock, googleUrlPath).get('state');
  if (!state) throw new Error('no state sent');
  return state;
}

describe('third-party sign-in buttons', () => {
  it('shows no button when the installation has no provider', async () => {
    stubApi();
    await renderRoutes(routes, { initialEntries: ['/auth/login'] });

    expect(await screen.findByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Continue with/ })).not.toBeInTheDocument();
  });

  it('shows one button per configured provider, on login and registration', async () => {
    stubApi({ [providersPath]: { body: [google, github] } });
    await renderRoutes(routes, { initialEntries: ['/auth/register'] });

    expect(await screen.findByRole('button', { name: 'Continue with Google' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue with GitHub' })).toBeInTheDocument();
  });

  it('sends a state naming the provider and a PKCE challenge, then leaves for the provider', async () => {
    const fetchMock = stubApi({
      [providersPath]: { body: [google] },
      [googleUrlPath]: { body: { url: 'https://google.test/authorize' } },
    });
    await renderRoutes(routes, { initialEntries: ['/auth/login'] });

    const state = await startGoogleSignIn(fetchMock);

    expect(state).toMatch(/^google\.[\w-]{32}$/);
    expect(queryOf(fetchMock, googleUrlPath).get('codeChallenge')).toMatch(/^[\w-]{43}$/);
  });
});

describe('/auth/login/external', () => {
  it("says 'Logging you in...', redeems the code with the verifier it kept and reloads to the root", async () => {
    const fetchMock = stubApi({
      [providersPath]: { body: [google] },
      [googleUrlPath]: { body: { url: 'https://google.test/authorize' } },
      [tokenPath]: { body: tokens },
    });
    const login = await renderRoutes(routes, { initialEntries: ['/auth/login'] });
    const state = await startGoogleSignIn(fetchMock);
    login.unmount();
    assign.mockClear();

    const { session } = await renderRoutes(routes, {
      initialEntries: [`/auth/login/external?state=${state}&code=the-code`],
    });

    expect(await screen.findByText('Logging you in...')).toBeInTheDocument();
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/'));
    const [[, init] = []] = callsTo(fetchMock, tokenPath);
    const sent = new URLSearchParams(init?.body as URLSearchParams);
    expect(Object.fromEntries(sent)).toMatchObject({
      grant_type: 'third_party',
      provider: 'google',
      code: 'the-code',
      registeredAs: 'api',
    });
    expect(sent.get('code_verifier')).toMatch(/^[\w-]{43}$/);
    expect((await session.manager.getUser())?.access_token).toBe('external-token');
  });

  it("answers another application's sign-in step, which then continues at the identity provider", async () => {
    const uid = 'interaction-1';
    const fetchMock = stubApi({
      [providersPath]: { body: [google] },
      [googleUrlPath]: { body: { url: 'https://google.test/authorize' } },
      [`/api/v1/auth/interactions/${uid}/details`]: {
        body: { uid, prompt: 'login', client: { id: 'notes', name: 'Notes' }, requestedScopes: [] },
      },
      [`/api/v1/auth/interactions/${uid}/login/external`]: {
        body: { redirectTo: 'http://localhost/oidc/auth/interaction-1' },
      },
    });
    const interaction = await renderRoutes(routes, { initialEntries: [`/interaction/${uid}`] });
    const state = await startGoogleSignIn(fetchMock);
    interaction.unmount();
    assign.mockClear();

    await renderRoutes(routes, { initialEntries: [`/auth/login/external?state=${state}&code=the-code`] });

    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost/oidc/auth/interaction-1'));
    const [[, init] = []] = callsTo(fetchMock, `/api/v1/auth/interactions/${uid}/login/external`);
    expect(JSON.parse(init?.body as string)).toMatchObject({ provider: 'google', code: 'the-code' });
    expect(callsTo(fetchMock, tokenPath)).toHaveLength(0);
  });

  it('refuses a return this tab did not start, without asking the server', async () => {
    const fetchMock = stubApi({ [tokenPath]: { body: tokens } });
    const { router } = await renderRoutes(routes, {
      initialEntries: ['/auth/login/external?state=google.forged-state-from-elsewhere&code=c'],
    });

    expect(await screen.findByRole('alert')).toHaveTextContent('not started from this browser tab');
    expect(router.state.location.pathname).toBe('/auth/login');
    expect(callsTo(fetchMock, tokenPath)).toHaveLength(0);
  });

  it('explains a sign-in cancelled at the provider', async () => {
    stubApi();
    await renderRoutes(routes, {
      initialEntries: ['/auth/login/external?error=access_denied&state=google.abc'],
    });

    expect(await screen.findByRole('alert')).toHaveTextContent('cancelled at the provider');
  });

  it('sends an account waiting for approval to its page', async () => {
    const fetchMock = stubApi({
      [providersPath]: { body: [google] },
      [googleUrlPath]: { body: { url: 'https://google.test/authorize' } },
      [tokenPath]: { status: 403, body: { code: 'ACCOUNT_PENDING_APPROVAL', message: 'x' } },
    });
    const login = await renderRoutes(routes, { initialEntries: ['/auth/login'] });
    const state = await startGoogleSignIn(fetchMock);
    login.unmount();

    const { router } = await renderRoutes(routes, {
      initialEntries: [`/auth/login/external?state=${state}&code=c`],
    });

    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login/pending-approval'));
  });

  it('shows the failure of the provider on the login page', async () => {
    const fetchMock = stubApi({
      [providersPath]: { body: [google] },
      [googleUrlPath]: { body: { url: 'https://google.test/authorize' } },
      [tokenPath]: { status: 400, body: { code: 'EXTERNAL_SIGNIN_FAILED', message: 'x' } },
    });
    const login = await renderRoutes(routes, { initialEntries: ['/auth/login'] });
    const state = await startGoogleSignIn(fetchMock);
    login.unmount();

    await renderRoutes(routes, { initialEntries: [`/auth/login/external?state=${state}&code=c`] });

    expect(await screen.findByRole('alert')).toHaveTextContent('Signing in with that provider did not work');
  });
});
