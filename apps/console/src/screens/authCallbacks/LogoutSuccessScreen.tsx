import { Navigate } from 'react-router';
import { authPaths } from '../../auth/authPaths';

/** Back from the identity provider's logout: on to the login page, remembering no path. */
export function LogoutSuccessScreen() {
  return <Navigate to={authPaths.login} replace />;
}
