import { Code, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertOctagon } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface GeneralErrorPanelProps {
  errorId: string | undefined;
  /** The Go Home link (and a contact link when known); a router link or a plain anchor. */
  actions: ReactNode;
}

/** Body of the general error page, shared by the /error route and the error boundaries. */
export function GeneralErrorPanel({ errorId, actions }: GeneralErrorPanelProps) {
  const { t } = useTranslation();
  return (
    <Stack align="center" ta="center" gap="lg" py={{ base: 'xl', sm: 64 }} role="alert">
      <ThemeIcon size={64} radius="xl" color="red" variant="light">
        <IconAlertOctagon size={36} stroke={1.5} aria-hidden />
      </ThemeIcon>
      <Title order={1} fz={{ base: 22, sm: 28 }} maw={560}>
        {t('screens.generalError.message')}
      </Title>
      {errorId && (
        <Stack gap={4} align="center">
          <Text fz="sm" c="dimmed">
            {t('screens.generalError.errorIdLabel')}
          </Text>
          <Code fz="sm" data-testid="error-id">
            {errorId}
          </Code>
          <Text fz="xs" c="dimmed">
            {t('screens.generalError.errorIdHint')}
          </Text>
        </Stack>
      )}
      <Group justify="center">{actions}</Group>
    </Stack>
  );
}
