import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { authPaths } from '../../auth/authPaths';
import { signInErrorCodes } from '../../auth/signInFailure';
import { SingleUseCodeRedemption } from '../../auth/SingleUseCodeRedemption';
import { emailVerificationGrant } from '../../auth/tokenApi';
import { useCompleteSignIn } from '../../auth/useCompleteSignIn';
import { useLeaveFailedSignIn } from '../../auth/useLeaveFailedSignIn';
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
  const completeSignIn = useCompleteSignIn();
  const leaveFailedSignIn = useLeaveFailedSignIn();
  const verify = useMutation({
    mutationFn: async () => completeSignIn(await emailVerificationGrant(code)),
    meta: { successMessage: false, errorMessage: false, handledErrorCodes: signInErrorCodes },
    onError: (error) => leaveFailedSignIn(verificationFailureReason(error), authPaths.login),
  });

  return (
    <SingleUseCodeRedemption
      heading={t('screens.verify.heading')}
      inProgress={t('screens.verify.inProgress')}
      redeem={verify.mutate}
    />
  );
}
