import type { Integration } from '@verbatim/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ConfirmDestructiveModal } from '../../chrome/ConfirmDestructiveModal';
import { disconnectIntegration, integrationsQuery } from './integrationsApi';

export interface DisconnectModalProps {
  /** The connection to remove; the modal is open while there is one. */
  integration: Integration | null;
  providerName: string;
  onClose: () => void;
}

/** Disconnecting revokes the access at the provider (where it can) and forgets the token. */
export function DisconnectModal({ integration, providerName, onClose }: DisconnectModalProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const disconnect = useMutation({
    mutationFn: disconnectIntegration,
    meta: {
      successMessage: 'toast.integrationDisconnected',
      errorMessage: 'toast.integrationDisconnectFailed',
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: integrationsQuery.queryKey });
      onClose();
    },
  });
  const close = () => {
    disconnect.reset();
    onClose();
  };

  return (
    <ConfirmDestructiveModal
      opened={integration !== null}
      title={t('screens.integrations.disconnectTitle')}
      question={
        integration &&
        t('screens.integrations.disconnectQuestion', {
          provider: providerName,
          account: integration.accountName,
        })
      }
      consequence={t('screens.integrations.disconnectConsequence')}
      cancelLabel={t('screens.integrations.cancel')}
      confirmLabel={t('screens.integrations.disconnect')}
      confirming={disconnect.isPending}
      onConfirm={() => integration && disconnect.mutate(integration.id)}
      onClose={close}
    />
  );
}
