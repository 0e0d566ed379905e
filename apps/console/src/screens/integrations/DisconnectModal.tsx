import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { Integration } from '@verbatim/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
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
    <Modal
      opened={integration !== null}
      onClose={close}
      title={t('screens.integrations.disconnectTitle')}
      centered
    >
      {integration && (
        <Stack gap="md">
          <Text>
            {t('screens.integrations.disconnectQuestion', {
              provider: providerName,
              account: integration.accountName,
            })}
          </Text>
          <Text fz="sm" c="dimmed">
            {t('screens.integrations.disconnectConsequence')}
          </Text>
          <Group justify="flex-end">
            {/* Focus starts on Cancel: Enter must not disconnect by accident. */}
            <Button variant="default" onClick={close} data-autofocus>
              {t('screens.integrations.cancel')}
            </Button>
            <Button
              color="red"
              loading={disconnect.isPending}
              onClick={() => disconnect.mutate(integration.id)}
            >
              {t('screens.integrations.disconnect')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
