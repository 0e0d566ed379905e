import { Navigate, Outlet, useLocation } from 'react-router';
import { authPaths } from './authPaths';
import { useAuthSession, useSessionUser } from './AuthSessionContext';

/**
 * Guard of the signed-in area: a visitor without a session goes to the login page, and the path
 * and query they asked for wait for them there, unless they just logged out (spec §2).
 */
export function RequireSignedIn() {
  const session = useAuthSession();
  const user = useSessionUser();
  const { pathname, search } = useLocation();
  if (user) return <Outlet />;
  if (session.lastEnd !== 'logout') session.rememberPath(`${pathname}${search}`);
  return <Navigate to={authPaths.login} replace />;
}
