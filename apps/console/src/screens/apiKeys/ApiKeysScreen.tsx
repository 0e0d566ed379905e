import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconKey, IconPlus } from '@tabler/icons-react';
import type { ApiKey } from '@verbatim/contracts';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../chrome/EmptyState';
import { QueryContent } from '../../chrome/QueryContent';
import { useConsoleConfig } from '../../runtimeConfig/consoleConfigQuery';
import { ApiKeysTable } from './ApiKeysTable';
import { apiKeysQuery } from './apiKeysApi';
import { AuthenticationGuide } from './AuthenticationGuide';
import { GenerateApiKeyModal } from './GenerateApiKeyModal';
import { RevokeApiKeyModal } from './RevokeApiKeyModal';
import { TranscriptionExamples } from './TranscriptionExamples';
import { UsageCard } from './UsageCard';

/**
 * /speech-to-text-api (spec §2): the API keys, how to authenticate with them, examples of
 * transcribing a recording, usage and prices.
 */
export function ApiKeysScreen() {
  const { t } = useTranslation();
  const keysHeadingId = useId();
  const keys = useQuery(apiKeysQuery);
  // Usage in money is the cloud product's: the on-premise edition counts against its licence.
  const cloudEdition = useConsoleConfig().data?.edition === 'cloud';
  const [generateOpened, setGenerateOpened] = useState(false);
  const [toRevoke, setToRevoke] = useState<ApiKey | null>(null);

  return (
    <Stack gap="xl" py="md">
      <Stack gap="xs">
        <Title order={1}>{t('screens.apiKeys.title')}</Title>
        <Text c="dimmed">{t(cloudEdition ? 'screens.apiKeys.intro' : 'screens.apiKeys.introOnPremise')}</Text>
      </Stack>

      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={keysHeadingId}>
        <Stack gap="md">
          <Group justify="space-between" gap="sm">
            <Title order={2} fz="lg" id={keysHeadingId}>
              {t('screens.apiKeys.keysTitle')}
            </Title>
            <Button
              leftSection={<IconPlus size={16} aria-hidden />}
              onClick={() => setGenerateOpened(true)}
              disabled={generateOpened}
            >
              {t('screens.apiKeys.generateButton')}
            </Button>
          </Group>
          <QueryContent
            query={keys}
            failedText={t('screens.apiKeys.loadFailed')}
            isEmpty={(data) => data.length === 0}
            empty={
              <EmptyState
                icon={IconKey}
                title={t('screens.apiKeys.emptyTitle')}
                text={t('screens.apiKeys.emptyText')}
              />
            }
          >
            {(data) => <ApiKeysTable keys={data} onRevoke={setToRevoke} />}
          </QueryContent>
        </Stack>
      </Card>

      <AuthenticationGuide origin={window.location.origin} />
      <TranscriptionExamples origin={window.location.origin} keys={keys.data} />
      {cloudEdition && <UsageCard />}

      <GenerateApiKeyModal opened={generateOpened} onClose={() => setGenerateOpened(false)} />
      <RevokeApiKeyModal apiKey={toRevoke} onClose={() => setToRevoke(null)} />
    </Stack>
  );
}
