import { Button, List, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconMailForward } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { resendVerification } from '../../auth/accountApi';

/** After registering (spec §2): the three steps to the verification link, and a way to resend it. */
export function AlmostInView({ email }: { email: string }) {
  const { t } = useTranslation();
  const resend = useMutation({
    mutationFn: () => resendVerification(email),
    meta: { successMessage: 'screens.register.resent', errorMessage: 'screens.register.resendFailed' },
  });
  return (
    <Stack gap="md">
      <ThemeIcon size={48} radius="xl" variant="light">
        <IconMailForward size={26} aria-hidden />
      </ThemeIcon>
      <Text>
        {t('screens.register.sentTo')}{' '}
        <Text span fw={700} data-testid="registered-email">
          {email}
        </Text>
      </Text>
      <List type="ordered" spacing="xs">
        <List.Item>{t('screens.register.step1')}</List.Item>
        <List.Item>{t('screens.register.step2')}</List.Item>
        <List.Item>{t('screens.register.step3')}</List.Item>
      </List>
      <Button variant="light" onClick={() => resend.mutate()} loading={resend.isPending}>
        {t('screens.register.resend')}
      </Button>
    </Stack>
  );
}
