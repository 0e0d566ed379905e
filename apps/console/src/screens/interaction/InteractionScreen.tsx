import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { documentNavigation } from '../../app/documentNavigation';
import type { PasswordCredentials } from '../../auth/tokenApi';
import { AuthCard } from '../../chrome/AuthCard';
import { CenteredLoader } from '../../chrome/CenteredLoader';
import { useForgotPassword } from '../forgotPassword/useForgotPassword';
import { ExternalSignInButtons } from '../externalLogin/ExternalSignInButtons';
import { LoginForm } from '../login/LoginForm';
import { SignInReasonAlert } from '../login/SignInReasonAlert';
import { ConsentPrompt } from './ConsentPrompt';
import { interactionDetailsQuery, submitInteractionLogin } from './interactionApi';

/** /interaction/{uid}: the identity provider's sign-in or consent prompt for an application. */
export function InteractionScreen() {
  const { t } = useTranslation();
  const uid = useParams().uid ?? '';
  const details = useQuery(interactionDetailsQuery(uid));
  const forgotPassword = useForgotPassword();
  const submit = useCallback(
    async ({ username, password, reCaptchaKey }: PasswordCredentials) => {
      const { redirectTo } = await submitInteractionLogin(uid, { username, password, reCaptchaKey });
      documentNavigation.assign(redirectTo);
    },
    [uid],
  );

  // Spec §8: a failed interaction fetch leads to the root.
  if (details.isError) return <Navigate to="/" replace />;
  if (!details.data) return <CenteredLoader />;
  const clientName = details.data.client.name;
  return details.data.prompt === 'login' ? (
    <AuthCard title={t('screens.login.heading')} subtitle={t('screens.interaction.signInTo', { clientName })}>
      <SignInReasonAlert />
      <LoginForm submit={submit} onForgotPassword={forgotPassword.open} />
      <ExternalSignInButtons registeredAs="api" interactionUid={uid} />
      {forgotPassword.modals}
    </AuthCard>
  ) : (
    <AuthCard title={t('screens.interaction.consentHeading', { clientName })}>
      <ConsentPrompt details={details.data} />
    </AuthCard>
  );
}
