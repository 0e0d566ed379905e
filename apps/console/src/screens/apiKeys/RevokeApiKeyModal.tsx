import { Button, Code, Group, Modal, Stack, Text } from '@mantine/core';
import type { ApiKey } from '@verbatim/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiKeysQuery, revokeApiKey } from './apiKeysApi';

export interface RevokeApiKeyModalProps {
  /** The key to revoke; the modal is open while there is one. */
  apiKey: ApiKey | null;
  onClose: () => void;
}

/** Spec §2 Modals: the revoke confirmation. Revocation takes effect at once and cannot be undone. */
export function RevokeApiKeyModal({ apiKey, onClose }: RevokeApiKeyModalProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: revokeApiKey,
    meta: { successMessage: 'toast.apiKeyRevoked', errorMessage: 'toast.apiKeyRevocationFailed' },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: apiKeysQuery.queryKey });
      onClose();
    },
  });
  const close = () => {
    revoke.reset();
    onClose();
  };

  return (
    <Modal opened={apiKey !== null} onClose={close} title={t('screens.apiKeys.revoke.title')} centered>
      {apiKey && (
        <Stack gap="md">
          <Text>
            {t('screens.apiKeys.revoke.question')} <Code>{apiKey.prefix}…</Code>
            {apiKey.name ? ` (${apiKey.name})` : ''}
          </Text>
          <Text fz="sm" c="dimmed">
            {t('screens.apiKeys.revoke.consequence')}
          </Text>
          <Group justify="flex-end">
            {/* Focus starts on Cancel: Enter must not revoke a key by accident. */}
            <Button variant="default" onClick={close} data-autofocus>
              {t('screens.apiKeys.revoke.cancel')}
            </Button>
            <Button color="red" loading={revoke.isPending} onClick={() => revoke.mutate(apiKey.id)}>
              {t('screens.apiKeys.revoke.confirm')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
