import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { authPaths } from '../../auth/authPaths';
import { useAuthSession } from '../../auth/AuthSessionContext';
import { CenteredLoader } from '../../chrome/CenteredLoader';

/** The identity provider's redirect after an authorization-code sign-in. */
export function LoginSuccessScreen() {
  const session = useAuthSession();
  const navigate = useNavigate();
  const started = useRef(false);

  useEffect(() => {
    // The code is single-use: StrictMode's second effect run must not redeem it again.
    if (started.current) return;
    started.current = true;
    session.manager
      .signinRedirectCallback()
      .then(() => navigate('/', { replace: true }))
      .catch(() => navigate(authPaths.login, { replace: true }));
  }, [navigate, session]);

  return <CenteredLoader />;
}
