import { Anchor } from '@mantine/core';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { authPaths } from '../../auth/authPaths';
import { AuthCard } from '../../chrome/AuthCard';
import { ExternalSignInButtons } from '../externalLogin/ExternalSignInButtons';
import { AlmostInView } from './AlmostInView';
import { RegisterForm } from './RegisterForm';

/** /auth/register: the form, then "You're almost in..." with the registered e-mail (spec §4). */
export function RegisterScreen() {
  const { t } = useTranslation();
  const [registeredEmail, setRegisteredEmail] = useState<string | null>(null);
  const loginLink = (
    <Trans
      i18nKey="screens.register.haveAccount"
      components={{ loginLink: <Anchor component={Link} to={authPaths.login} fw={600} /> }}
    />
  );

  if (registeredEmail !== null) {
    return (
      <AuthCard title={t('screens.register.almostIn')} footer={loginLink}>
        <AlmostInView email={registeredEmail} />
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title={t('screens.register.heading')}
      subtitle={t('screens.register.subtitle')}
      footer={loginLink}
    >
      <RegisterForm onRegistered={(user) => setRegisteredEmail(user.email)} />
      <ExternalSignInButtons registeredAs="api" />
    </AuthCard>
  );
}
