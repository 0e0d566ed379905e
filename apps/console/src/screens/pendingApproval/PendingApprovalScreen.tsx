import { Anchor, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { authPaths } from '../../auth/authPaths';
import { AuthCard } from '../../chrome/AuthCard';

/** Spec §6: a verified account that waits for an operator's approval cannot sign in yet. */
export function PendingApprovalScreen() {
  const { t } = useTranslation();
  return (
    <AuthCard
      title={t('screens.pendingApproval.heading')}
      footer={
        <Anchor component={Link} to={authPaths.login} fw={600}>
          {t('screens.pendingApproval.backToLogin')}
        </Anchor>
      }
    >
      <Text>{t('screens.pendingApproval.message')}</Text>
    </AuthCard>
  );
}
