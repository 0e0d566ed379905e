import { InMemoryWebStorage, User, UserManager } from 'oidc-client-ts';
import { connectApiAuth } from '../api/apiAuth';
import { AuthSession } from '../auth/AuthSession';
import { oidcSettings } from '../auth/oidcSettings';

export const testUserId = 'user-1';
export const testAccessToken = 'test-access-token';

/** A session on memory storage, connected to the API client like the real one; signed out. */
export async function testSession({ signedIn = false } = {}): Promise<AuthSession> {
  const storage = new InMemoryWebStorage();
  const manager = new UserManager({
    ...oidcSettings('http://localhost:3000', storage),
    automaticSilentRenew: false,
  });
  const session = new AuthSession(manager, storage);
  if (signedIn) {
    const nowSeconds = Math.floor(Date.now() / 1000);
    await manager.storeUser(
      new User({
        access_token: testAccessToken,
        refresh_token: 'test-refresh-token',
        token_type: 'Bearer',
        profile: {
          sub: testUserId,
          email: 'ada@example.com',
          iss: 'http://localhost:3000/oidc',
          aud: 'verbatim-console',
          exp: nowSeconds + 900,
          iat: nowSeconds,
        },
        expires_at: nowSeconds + 900,
      }),
    );
  }
  await session.load();
  connectApiAuth({
    accessToken: () => session.accessToken(),
    onUnauthenticated: () => void session.end('expiry'),
  });
  return session;
}
