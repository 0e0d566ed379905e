import { useEffect } from 'react';
import { useAuthSession } from '../../auth/AuthSessionContext';

/** Loaded in the hidden frame of a silent renewal; hands the answer to the page that opened it. */
export function TokenRenewSuccessScreen() {
  const session = useAuthSession();
  useEffect(() => {
    void session.manager.signinSilentCallback().catch(() => undefined);
  }, [session]);
  return null;
}
