import { Code } from '@mantine/core';
import type { ApiKey } from '@verbatim/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ConfirmDestructiveModal } from '../../chrome/ConfirmDestructiveModal';
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
    <ConfirmDestructiveModal
      opened={apiKey !== null}
      title={t('screens.apiKeys.revoke.title')}
      question={
        apiKey && (
          <>
            {t('screens.apiKeys.revoke.question')} <Code>{apiKey.prefix}…</Code>
            {apiKey.name ? ` (${apiKey.name})` : ''}
          </>
        )
      }
      consequence={t('screens.apiKeys.revoke.consequence')}
      cancelLabel={t('screens.apiKeys.revoke.cancel')}
      confirmLabel={t('screens.apiKeys.revoke.confirm')}
      confirming={revoke.isPending}
      onConfirm={() => apiKey && revoke.mutate(apiKey.id)}
      onClose={close}
    />
  );
}
