import { useEffect, useState } from 'react';
import { Navigate } from 'react-router';
import { homePath } from '../app/paths';
import { authPaths } from './authPaths';
import { useAuthSession, useSessionUser } from './AuthSessionContext';

/** `/` and `/auth`: the login page when signed out; else the remembered path, or /home. */
export function RootRedirect() {
  const session = useAuthSession();
  const user = useSessionUser();
  const [rememberedPath] = useState(() => session.rememberedPath());

  useEffect(() => {
    if (user) session.forgetRememberedPath();
  }, [session, user]);

  if (!user) return <Navigate to={authPaths.login} replace />;
  return <Navigate to={rememberedPath ?? homePath} replace />;
}
