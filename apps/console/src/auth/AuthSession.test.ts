import { describe, expect, it, vi } from 'vitest';
import { apiRequest } from '../api/apiClient';
import { profileSchema } from '@verbatim/contracts';
import { stubApi } from '../test/stubApi';
import { testAccessToken, testSession } from '../test/testSession';

describe('auth session', () => {
  it('sends the bearer token with every API call', async () => {
    await testSession({ signedIn: true });
    const fetchMock = stubApi();

    await apiRequest('/profile', { schema: profileSchema });

    expect(fetchMock.mock.calls[0]?.[1]?.headers).toMatchObject({
      authorization: `Bearer ${testAccessToken}`,
    });
  });

  it('ends on a 401 UNAUTHENTICATED answer, as an expiry that remembers the path', async () => {
    const session = await testSession({ signedIn: true });
    const listener = vi.fn();
    session.subscribe(listener);
    stubApi({ '/api/v1/profile': { status: 401, body: { code: 'UNAUTHENTICATED', message: 'x' } } });

    await expect(apiRequest('/profile', { schema: profileSchema })).rejects.toMatchObject({ status: 401 });

    await vi.waitFor(() => expect(session.getUser()).toBeNull());
    expect(session.lastEnd).toBe('expiry');
    expect(listener).toHaveBeenCalled();
  });

  it('ends when the silent renewal fails', async () => {
    const session = await testSession({ signedIn: true });

    await session.manager.events._raiseSilentRenewError(new Error('renewal failed'));

    await vi.waitFor(() => expect(session.getUser()).toBeNull());
  });

  it('logs out: revokes the refresh token, forgets the user and the remembered path', async () => {
    const session = await testSession({ signedIn: true });
    const revoke = vi.spyOn(session.manager, 'revokeTokens').mockResolvedValue();
    session.rememberPath('/home?tab=x');

    await session.logout();

    expect(revoke).toHaveBeenCalledWith(['refresh_token']);
    expect(session.getUser()).toBeNull();
    expect(await session.manager.getUser()).toBeNull();
    expect(session.rememberedPath()).toBeNull();
    expect(session.lastEnd).toBe('logout');
  });

  it('still logs out when the revocation fails', async () => {
    const session = await testSession({ signedIn: true });
    vi.spyOn(session.manager, 'revokeTokens').mockRejectedValue(new Error('offline'));

    await session.logout();

    expect(session.getUser()).toBeNull();
  });
});
