import { Button, Group, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** Spec §2: the success modal after a recovery request. */
export function PasswordResetSentModal({ email, onClose }: { email: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={email !== null} onClose={onClose} title={t('screens.passwordResetSent.title')} centered>
      <Stack gap="md" align="flex-start">
        <ThemeIcon size={44} radius="xl" variant="light" color="teal">
          <IconMailCheck size={24} aria-hidden />
        </ThemeIcon>
        <Text>{t('screens.passwordResetSent.message', { email })}</Text>
        <Group justify="flex-end" w="100%">
          <Button onClick={onClose}>{t('screens.passwordResetSent.close')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
