import { Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams } from 'react-router';
import { authPaths } from '../../auth/authPaths';
import { signInErrorCodes } from '../../auth/signInFailure';
import { emailVerificationGrant } from '../../auth/tokenApi';
import { useCompleteSignIn } from '../../auth/useCompleteSignIn';
import { AuthCard } from '../../chrome/AuthCard';
import { CenteredLoader } from '../../chrome/CenteredLoader';
import type { TranslationKey } from '../../i18n/translationKey';
import { verificationFailureReason } from './verificationFailureReason';

/**
 * /auth/verify/{code}: redeems the code of the verification e-mail, which also signs the user in
 * (spec §2, §4). Any failure leads to the login page with the reason.
 */
export function VerifyEmailScreen() {
  const { code } = useParams();
  return code ? <VerifyCode code={code} /> : <Navigate to={authPaths.login} replace />;
}

function VerifyCode({ code }: { code: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const completeSignIn = useCompleteSignIn();
  const started = useRef(false);
  const verify = useMutation({
    mutationFn: async () => completeSignIn(await emailVerificationGrant(code)),
    meta: { successMessage: false, errorMessage: false, handledErrorCodes: signInErrorCodes },
    onError: (error) => {
      const reason = verificationFailureReason(error);
      if (reason === 'pendingApproval') {
        void navigate(authPaths.pendingApproval, { replace: true });
        return;
      }
      void navigate(authPaths.login, {
        replace: true,
        state: { reasonKey: reason satisfies TranslationKey },
      });
    },
  });
  const { mutate } = verify;

  useEffect(() => {
    // The code is single-use: StrictMode's second effect run must not redeem it again.
    if (started.current) return;
    started.current = true;
    mutate();
  }, [mutate]);

  return (
    <AuthCard title={t('screens.verify.heading')}>
      <Stack align="center" gap="sm">
        <CenteredLoader label={t('screens.verify.inProgress')} />
        <Text>{t('screens.verify.inProgress')}</Text>
      </Stack>
    </AuthCard>
  );
}
