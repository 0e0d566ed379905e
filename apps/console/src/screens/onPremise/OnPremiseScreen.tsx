import { Anchor, Card, Loader, Stack, Text, Title } from '@mantine/core';
import { IconServer } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { EmptyState } from '../../chrome/EmptyState';
import { ExternalLink } from '../../chrome/ExternalLink';
import { QueryContent } from '../../chrome/QueryContent';
import { useConsoleConfig } from '../../runtimeConfig/consoleConfigQuery';
import { InstallationLicenceCard } from './InstallationLicenceCard';
import { LicencesTable } from './LicencesTable';
import { licencesQuery } from './onPremiseApi';
import { UsageReportUpload } from './UsageReportUpload';

/**
 * /on-premise (spec §2): the account's on-premise licences, the offer page and the sales contact,
 * and the upload of an air-gapped installation's usage report. The on-premise edition shows its
 * own licence here instead.
 */
export function OnPremiseScreen() {
  const { t } = useTranslation();
  const config = useConsoleConfig().data;
  const onPremiseEdition = config?.edition === 'on_premise';

  return (
    <Stack gap="xl" py="md">
      <Stack gap="xs">
        <Title order={1}>{t('screens.onPremise.heading')}</Title>
        <Text c="dimmed">
          {t('screens.onPremise.info')}{' '}
          {config && (
            <ExternalLink href={config.onPremise.offerUrl}>{t('screens.onPremise.offerLink')}</ExternalLink>
          )}
        </Text>
      </Stack>
      {config === undefined ? (
        <Loader size="sm" aria-label={t('chrome.loading')} />
      ) : onPremiseEdition ? (
        <InstallationLicenceCard />
      ) : (
        <AccountLicences salesEmail={config.onPremise.salesEmail} />
      )}
    </Stack>
  );
}

function AccountLicences({ salesEmail }: { salesEmail: string }) {
  const { t } = useTranslation();
  const headingId = useId();
  const licences = useQuery(licencesQuery);
  return (
    <>
      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
        <Stack gap="md">
          <Title order={2} fz="lg" id={headingId}>
            {t('screens.onPremise.licencesTitle')}
          </Title>
          <QueryContent
            query={licences}
            failedText={t('screens.onPremise.loadFailed')}
            isEmpty={(data) => data.length === 0}
            empty={
              <EmptyState
                icon={IconServer}
                title={t('screens.onPremise.emptyTitle')}
                text={
                  <Trans
                    i18nKey="screens.onPremise.emptyText"
                    values={{ email: salesEmail }}
                    components={{ contactLink: <Anchor href={`mailto:${salesEmail}`} /> }}
                  />
                }
              />
            }
          >
            {(data) => <LicencesTable licences={data} />}
          </QueryContent>
        </Stack>
      </Card>
      {licences.isSuccess && licences.data.length > 0 && <UsageReportUpload />}
    </>
  );
}
