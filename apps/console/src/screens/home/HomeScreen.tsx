import { SimpleGrid, Stack, Title } from '@mantine/core';
import { IconApi, IconBook2 } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { apiReferencePath, submittedFilesPath } from '../../app/paths';
import { useProfile } from '../../profile/useProfile';
import { useConsoleConfig } from '../../runtimeConfig/consoleConfigQuery';
import { UploadFileModal } from '../submittedFiles/UploadFileModal';
import { QuickActions } from './QuickActions';
import { ResourceCard } from './ResourceCard';
import { SystemStatusCard } from './SystemStatusCard';
import { WelcomeCard } from './WelcomeCard';

/** Getting started (spec §1): the welcome, the main actions, where to learn the API, service status. */
export function HomeScreen() {
  const { t } = useTranslation();
  const config = useConsoleConfig().data;
  const links = config?.links;
  const profile = useProfile().data;
  const navigate = useNavigate();
  const [uploadOpened, setUploadOpened] = useState(false);

  return (
    <Stack gap="xl" py="md">
      <Title order={1}>{t('screens.home.title')}</Title>
      {profile?.showWelcomeMsg && <WelcomeCard />}
      {config && (
        <QuickActions
          links={config.links}
          edition={config.edition}
          onUploadFile={() => setUploadOpened(true)}
        />
      )}
      <UploadFileModal
        opened={uploadOpened}
        onClose={() => setUploadOpened(false)}
        // The new file shows first in the table, where its transcript arrives.
        onUploaded={() => void navigate(submittedFilesPath)}
      />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg">
        {links && (
          <ResourceCard
            icon={IconBook2}
            title={t('screens.home.docsCardTitle')}
            text={t('screens.home.docsCardText')}
            linkLabel={t('screens.home.docsLink')}
            href={links.docs}
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
