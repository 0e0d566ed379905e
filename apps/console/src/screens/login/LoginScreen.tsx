import { Anchor } from '@mantine/core';
import { useCallback } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { authPaths } from '../../auth/authPaths';
import { type PasswordCredentials, passwordGrant } from '../../auth/tokenApi';
import { useCompleteSignIn } from '../../auth/useCompleteSignIn';
import { AuthCard } from '../../chrome/AuthCard';
import { ExternalSignInButtons } from '../externalLogin/ExternalSignInButtons';
import { useForgotPassword } from '../forgotPassword/useForgotPassword';
import { LoginForm } from './LoginForm';
import { SignInReasonAlert } from './SignInReasonAlert';

/** /auth/login: the password grant, then the reload to the root (spec §4 Login). */
export function LoginScreen() {
  const { t } = useTranslation();
  const completeSignIn = useCompleteSignIn();
  const forgotPassword = useForgotPassword();
  const submit = useCallback(
    async (credentials: PasswordCredentials) => completeSignIn(await passwordGrant(credentials)),
    [completeSignIn],
  );

  return (
    <AuthCard
      title={t('screens.login.heading')}
      subtitle={t('screens.login.subtitle')}
      footer={
        <Trans
          i18nKey="screens.login.noAccount"
          components={{ registerLink: <Anchor component={Link} to={authPaths.register} fw={600} /> }}
        />
      }
    >
      <SignInReasonAlert />
      <LoginForm submit={submit} onForgotPassword={forgotPassword.open} />
      <ExternalSignInButtons registeredAs="api" />
      {forgotPassword.modals}
    </AuthCard>
  );
}
