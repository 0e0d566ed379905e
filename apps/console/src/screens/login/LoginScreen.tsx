import { Anchor, Alert } from '@mantine/core';
import { useCallback } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { authPaths } from '../../auth/authPaths';
import { type PasswordCredentials, passwordGrant } from '../../auth/tokenApi';
import { useCompleteSignIn } from '../../auth/useCompleteSignIn';
import { AuthCard } from '../../chrome/AuthCard';
import type { TranslationKey } from '../../i18n/translationKey';
import { useForgotPassword } from '../forgotPassword/useForgotPassword';
import { LoginForm } from './LoginForm';

/** Why another screen sent the user here (a failed verification link), shown above the form. */
export interface LoginLocationState {
  reasonKey?: TranslationKey;
}

function reasonOf(state: unknown): TranslationKey | undefined {
  if (typeof state !== 'object' || state === null || !('reasonKey' in state)) return undefined;
  return typeof state.reasonKey === 'string' ? (state.reasonKey as TranslationKey) : undefined;
}

/** /auth/login: the password grant, then the reload to the root (spec §4 Login). */
export function LoginScreen() {
  const { t } = useTranslation();
  const completeSignIn = useCompleteSignIn();
  const forgotPassword = useForgotPassword();
  const reasonKey = reasonOf(useLocation().state);
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
      {reasonKey && (
        <Alert color="orange" variant="light" role="alert">
          {t(reasonKey)}
        </Alert>
      )}
      <LoginForm submit={submit} onForgotPassword={forgotPassword.open} />
      {forgotPassword.modals}
    </AuthCard>
  );
}
