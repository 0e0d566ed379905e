import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconEyeOff } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { profileQuery, setWelcomeMessage } from '../../profile/profileApi';
import { useProductName } from '../../runtimeConfig/useProductName';

/** The welcome of Getting started (spec §1), until the user hides it (PUT /profile/welcome). */
export function WelcomeCard() {
  const { t } = useTranslation();
  const productName = useProductName();
  const queryClient = useQueryClient();
  const hide = useMutation({
    mutationFn: () => setWelcomeMessage(false),
    meta: { successMessage: false },
    onSuccess: (profile) => queryClient.setQueryData(profileQuery.queryKey, profile),
  });
  return (
    <Card withBorder radius="md" padding="lg" bg="indigo.0">
      <Stack gap="xs">
        <Title order={2} fz={{ base: 22, sm: 26 }}>
          {t('screens.home.heading', { productName })}
        </Title>
        <Text c="dimmed">{t('screens.home.intro', { productName })}</Text>
        <Group justify="flex-end">
          <Button
            variant="subtle"
            size="xs"
            leftSection={<IconEyeOff size={14} aria-hidden />}
            onClick={() => hide.mutate()}
            loading={hide.isPending}
          >
            {t('screens.home.hideWelcome')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
