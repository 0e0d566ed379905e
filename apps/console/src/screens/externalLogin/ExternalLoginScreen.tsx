import { useMutation } from '@tanstack/react-query';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { authPaths } from '../../auth/authPaths';
import { takeReturnedSignIn } from '../../auth/externalSignIn';
import { signInErrorCodes } from '../../auth/signInFailure';
import { SingleUseCodeRedemption } from '../../auth/SingleUseCodeRedemption';
import { thirdPartyGrant } from '../../auth/tokenApi';
import { useCompleteSignIn } from '../../auth/useCompleteSignIn';
import { useLeaveFailedSignIn } from '../../auth/useLeaveFailedSignIn';
import { documentNavigation } from '../../app/documentNavigation';
import { submitInteractionExternalLogin } from '../interaction/interactionApi';
import { externalLoginFailureReason, ExternalLoginRefused } from './externalLoginFailureReason';

/**
 * /auth/login/external: where Google or GitHub send the browser back with state and code (spec §2).
 * The code is redeemed with the third_party grant, or, when the sign-in answers another application's
 * sign-in step, at that step; any failure leads back to the form it started from, with the reason.
 */
export function ExternalLoginScreen() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const completeSignIn = useCompleteSignIn();
  const leaveFailedSignIn = useLeaveFailedSignIn();
  // Where a failure is explained: the sign-in form this sign-in was started from.
  const signInForm = useRef<string>(authPaths.login);
  const signIn = useMutation({
    mutationFn: async () => {
      const state = searchParams.get('state') ?? '';
      const code = searchParams.get('code');
      // The provider says why it sent no code (the user cancelled): nothing to redeem.
      if (searchParams.has('error') || !code) throw new ExternalLoginRefused('cancelled');
      const returned = takeReturnedSignIn(state);
      if (!returned) throw new ExternalLoginRefused('notStartedHere');
      const { interactionUid, ...grant } = returned;
      if (interactionUid) {
        signInForm.current = `${authPaths.interaction}/${encodeURIComponent(interactionUid)}`;
        // Another application's sign-in: the identity provider continues its flow, not the console.
        const { redirectTo } = await submitInteractionExternalLogin(interactionUid, { ...grant, code });
        documentNavigation.assign(redirectTo);
        return;
      }
      await completeSignIn(await thirdPartyGrant({ ...grant, code }));
    },
    meta: {
      successMessage: false,
      errorMessage: false,
      handledErrorCodes: [...signInErrorCodes, 'EXTERNAL_SIGNIN_FAILED'],
    },
    onError: (error) => leaveFailedSignIn(externalLoginFailureReason(error), signInForm.current),
  });

  return (
    <SingleUseCodeRedemption
      heading={t('screens.externalLogin.heading')}
      inProgress={t('screens.externalLogin.inProgress')}
      redeem={signIn.mutate}
    />
  );
}
