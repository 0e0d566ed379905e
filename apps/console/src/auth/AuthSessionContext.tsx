import { createContext, type ReactNode, use, useSyncExternalStore } from 'react';
import type { User } from 'oidc-client-ts';
import type { AuthSession } from './AuthSession';

const AuthSessionContext = createContext<AuthSession | null>(null);

export function AuthSessionProvider({ session, children }: { session: AuthSession; children: ReactNode }) {
  return <AuthSessionContext value={session}>{children}</AuthSessionContext>;
}

export function useAuthSession(): AuthSession {
  const session = use(AuthSessionContext);
  if (!session) throw new Error('useAuthSession outside AuthSessionProvider');
  return session;
}

/** The signed-in user, or null; re-renders when the session starts or ends. */
export function useSessionUser(): User | null {
  const session = useAuthSession();
  return useSyncExternalStore(session.subscribe, session.getUser);
}
