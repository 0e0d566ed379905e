import { Alert, Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { InstallationLicence } from '@verbatim/contracts';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryContent } from '../../chrome/QueryContent';
import { formatDateTime } from '../../format/dateTime';
import { hoursAndMinutes } from './licenceDuration';
import { licenceStatusColor } from './LicencesTable';
import { installationLicenceQuery } from './onPremiseApi';

/** The on-premise edition's own licence: status, used, remaining, last report, and any problem. */
export function InstallationLicenceCard() {
  const { t } = useTranslation();
  const licence = useQuery(installationLicenceQuery);
  return (
    <QueryContent query={licence} failedText={t('screens.onPremise.loadFailed')}>
      {(view) => <InstallationLicenceFacts view={view} />}
    </QueryContent>
  );
}

function InstallationLicenceFacts({ view }: { view: InstallationLicence }) {
  const { t } = useTranslation();
  const headingId = useId();
  const duration = (seconds: number) => t('screens.onPremise.duration', hoursAndMinutes(seconds));
  const facts: [string, string][] = [
    [t('screens.onPremise.table.name'), view.name ?? '-'],
    [t('screens.onPremise.table.keyPrefix'), view.keyPrefix ? `${view.keyPrefix}…` : '-'],
    [t('screens.onPremise.table.expiry'), view.expiry ? formatDateTime(view.expiry) : '-'],
    [t('screens.onPremise.table.used'), duration(view.used)],
    [t('screens.onPremise.remaining'), duration(view.remaining)],
    [t('screens.onPremise.table.total'), view.maxUses ? duration(view.maxUses) : '-'],
    [t('screens.onPremise.lastReport'), view.lastReportAt ? formatDateTime(view.lastReportAt) : '-'],
    [t('screens.onPremise.unreported'), duration(view.unreportedSeconds)],
  ];
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2} fz="lg" id={headingId}>
            {t('screens.onPremise.installationTitle')}
          </Title>
          {view.status && (
            <Badge color={licenceStatusColor[view.status]} variant="light">
              {t(`screens.onPremise.status.${view.status}`)}
            </Badge>
          )}
        </Group>
        {view.problem && (
          <Alert color="red" variant="light" role="alert" title={t(`apiErrors.${view.problem}`)}>
            {view.problemMessage}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {facts.map(([label, value]) => (
            <Stack key={label} gap={0}>
              <Text fz="sm" c="dimmed">
                {label}
              </Text>
              <Text fw={600} data-testid={`installation-${label}`}>
                {value}
              </Text>
            </Stack>
          ))}
        </SimpleGrid>
      </Stack>
    </Card>
  );
}
