import { Alert, Anchor, Card, Loader, Stack, Text, Title } from '@mantine/core';
import { IconServer } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { ExternalLink } from '../../chrome/ExternalLink';
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
          {licences.isPending ? (
            <Loader size="sm" aria-label={t('chrome.loading')} />
          ) : licences.isError ? (
            <Alert color="red" variant="light" role="alert">
              {t('screens.onPremise.loadFailed')}
            </Alert>
          ) : licences.data.length === 0 ? (
            <Stack align="center" gap={6} py="lg">
              <IconServer size={32} stroke={1.4} aria-hidden />
              <Text fw={600}>{t('screens.onPremise.emptyTitle')}</Text>
              <Text fz="sm" c="dimmed" ta="center">
                <Trans
                  i18nKey="screens.onPremise.emptyText"
                  values={{ email: salesEmail }}
                  components={{ contactLink: <Anchor href={`mailto:${salesEmail}`} /> }}
                />
              </Text>
            </Stack>
          ) : (
            <LicencesTable licences={licences.data} />
          )}
        </Stack>
      </Card>
      {licences.isSuccess && licences.data.length > 0 && <UsageReportUpload />}
    </>
  );
}
