import { UserManager } from 'oidc-client-ts';
import { connectApiAuth } from '../api/apiAuth';
import { AuthSession } from './AuthSession';
import { oidcSettings } from './oidcSettings';

/**
 * The session of the console served at `origin`, loaded from storage and connected to the API
 * client: every call sends its bearer token and a 401 UNAUTHENTICATED ends it.
 */
export async function createAuthSession(
  origin: string,
  storage: Storage = localStorage,
): Promise<AuthSession> {
  const session = new AuthSession(new UserManager(oidcSettings(origin, storage)), storage);
  await session.load();
  connectApiAuth({
    accessToken: () => session.accessToken(),
    onUnauthenticated: () => void session.end('expiry'),
  });
  return session;
}
