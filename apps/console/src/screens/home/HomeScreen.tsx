import { SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconApi, IconBook2 } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { apiReferencePath } from '../../app/paths';
import { useConsoleConfig } from '../../runtimeConfig/consoleConfigQuery';
import { useProductName } from '../../runtimeConfig/useProductName';
import { ResourceCard } from './ResourceCard';
import { SystemStatusCard } from './SystemStatusCard';

/** Getting started: what the product is, where to learn the API, whether the service is up. */
export function HomeScreen() {
  const { t } = useTranslation();
  const productName = useProductName();
  const docsUrl = useConsoleConfig().data?.links.docs;

  return (
    <Stack gap="xl" py="md">
      <Stack gap="xs" maw={720}>
        <Title order={1}>{t('screens.home.heading', { productName })}</Title>
        <Text c="dimmed" fz="lg">
          {t('screens.home.intro', { productName })}
        </Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg">
        {docsUrl && (
          <ResourceCard
            icon={IconBook2}
            title={t('screens.home.docsCardTitle')}
            text={t('screens.home.docsCardText')}
            linkLabel={t('screens.home.docsLink')}
            href={docsUrl}
          />
        )}
        <ResourceCard
          icon={IconApi}
          title={t('screens.home.apiReferenceCardTitle')}
          text={t('screens.home.apiReferenceCardText')}
          linkLabel={t('screens.home.apiReferenceLink')}
          href={apiReferencePath}
        />
        <SystemStatusCard />
      </SimpleGrid>
    </Stack>
  );
}
