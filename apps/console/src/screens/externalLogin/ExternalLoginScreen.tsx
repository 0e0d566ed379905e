import { Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { authPaths } from '../../auth/authPaths';
import { takeReturnedSignIn } from '../../auth/externalSignIn';
import { signInErrorCodes } from '../../auth/signInFailure';
import { thirdPartyGrant } from '../../auth/tokenApi';
import { useCompleteSignIn } from '../../auth/useCompleteSignIn';
import { documentNavigation } from '../../app/documentNavigation';
import { AuthCard } from '../../chrome/AuthCard';
import { CenteredLoader } from '../../chrome/CenteredLoader';
import { submitInteractionExternalLogin } from '../interaction/interactionApi';
import { externalLoginFailureReason, ExternalLoginRefused } from './externalLoginFailureReason';

/**
 * /auth/login/external: where Google or GitHub send the browser back with state and code (spec §2).
 * The code is redeemed with the third_party grant, or, when the sign-in answers another application's
 * sign-in step, at that step; any failure leads back to the form it started from, with the reason.
 */
export function ExternalLoginScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const completeSignIn = useCompleteSignIn();
  const started = useRef(false);
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
    onError: (error) => {
      const reason = externalLoginFailureReason(error);
      if (reason === 'pendingApproval') {
        void navigate(authPaths.pendingApproval, { replace: true });
        return;
      }
      void navigate(signInForm.current, { replace: true, state: { reasonKey: reason } });
    },
  });
  const { mutate } = signIn;

  useEffect(() => {
    // The code is single-use: StrictMode's second effect run must not redeem it again.
    if (started.current) return;
    started.current = true;
    mutate();
  }, [mutate]);

  return (
    <AuthCard title={t('screens.externalLogin.heading')}>
      <Stack align="center" gap="sm">
        <CenteredLoader label={t('screens.externalLogin.inProgress')} />
        <Text>{t('screens.externalLogin.inProgress')}</Text>
      </Stack>
    </AuthCard>
  );
}
