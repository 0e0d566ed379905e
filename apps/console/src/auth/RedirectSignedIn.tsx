import { Navigate, Outlet } from 'react-router';
import { useSessionUser } from './AuthSessionContext';

/** Guard of the sign-in screens: someone signed in goes on to the root, which knows where (spec §2). */
export function RedirectSignedIn() {
  const user = useSessionUser();
  return user ? <Navigate to="/" replace /> : <Outlet />;
}
