import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import type { TranslationKey } from '../i18n/translationKey';
import { authPaths } from './authPaths';

/**
 * Where a sign-in that failed with no form on screen (a verification link, a provider's return)
 * leads: an account awaiting approval has its own page; any other failure goes back to the sign-in
 * form, which shows the reason. Replaces the history entry, so Back does not redeem the code again.
 */
export function useLeaveFailedSignIn() {
  const navigate = useNavigate();
  return useCallback(
    (reason: 'pendingApproval' | TranslationKey, signInForm: string) => {
      if (reason === 'pendingApproval') {
        void navigate(authPaths.pendingApproval, { replace: true });
        return;
      }
      void navigate(signInForm, { replace: true, state: { reasonKey: reason } });
    },
    [navigate],
  );
}
