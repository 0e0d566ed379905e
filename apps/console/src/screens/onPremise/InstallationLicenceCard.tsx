import { Alert, Badge, Card, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../format/dateTime';
import { hoursAndMinutes } from './licenceDuration';
import { licenceStatusColor } from './LicencesTable';
import { installationLicenceQuery } from './onPremiseApi';

/** The on-premise edition's own licence: status, used, remaining, last report, and any problem. */
export function InstallationLicenceCard() {
  const { t } = useTranslation();
  const headingId = useId();
  const licence = useQuery(installationLicenceQuery);
  const duration = (seconds: number) => t('screens.onPremise.duration', hoursAndMinutes(seconds));
  if (licence.isPending) return <Loader size="sm" aria-label={t('chrome.loading')} />;
  if (licence.isError) {
    return (
      <Alert color="red" variant="light" role="alert">
        {t('screens.onPremise.loadFailed')}
      </Alert>
    );
  }
  const view = licence.data;
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
