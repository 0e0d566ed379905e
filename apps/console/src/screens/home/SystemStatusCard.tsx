import { Alert, Badge, Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheckFilled, IconCircleXFilled, IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { Readiness } from '@verbatim/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../api/ApiRequestError';
import { readinessQuery } from './readinessQuery';

/** Whether the service behind the console can take work: database reachable, schema migrated. */
export function SystemStatusCard() {
  const { t } = useTranslation();
  const headingId = useId();
  const readiness = useQuery(readinessQuery);

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId} h="100%">
      <Group justify="space-between" mb="md" wrap="nowrap">
        <Title order={2} fz="lg" id={headingId}>
          {t('screens.systemStatus.heading')}
        </Title>
        {readiness.data && <OverallBadge status={readiness.data.status} />}
      </Group>
      {readiness.isPending && (
        <Stack gap="xs" aria-busy>
          <Text fz="sm" c="dimmed">
            {t('screens.systemStatus.loading')}
          </Text>
          <Skeleton h={16} />
          <Skeleton h={16} />
        </Stack>
      )}
      {readiness.isError && (
        <Alert color="orange" variant="light" title={t('screens.systemStatus.unavailable')}>
          <Stack gap="xs" align="flex-start">
            <Text fz="sm">
              {readiness.error instanceof ApiRequestError
                ? t(`apiErrors.${readiness.error.code}`)
                : readiness.error.message}
            </Text>
            <Button
              size="xs"
              variant="light"
              leftSection={<IconRefresh size={14} aria-hidden />}
              loading={readiness.isFetching}
              onClick={() => void readiness.refetch()}
            >
              {t('screens.systemStatus.retry')}
            </Button>
          </Stack>
        </Alert>
      )}
      {readiness.data && <ReadinessChecks checks={readiness.data.checks} />}
    </Card>
  );
}

function OverallBadge({ status }: { status: Readiness['status'] }) {
  const { t } = useTranslation();
  switch (status) {
    case 'ready':
      return (
        <Badge color="teal" variant="light" style={{ flexShrink: 0 }}>
          {t('screens.systemStatus.ready')}
        </Badge>
      );
    case 'not_ready':
      return (
        <Badge color="orange" variant="light" style={{ flexShrink: 0 }}>
          {t('screens.systemStatus.notReady')}
        </Badge>
      );
  }
}

function ReadinessChecks({ checks }: { checks: Readiness['checks'] }) {
  const { t } = useTranslation();
  const { database, migrations } = checks;
  const databaseText = !database.ok
    ? t('screens.systemStatus.databaseFailing')
    : database.latencyMs === undefined
      ? t('screens.systemStatus.databaseOk')
      : t('screens.systemStatus.databaseOkWithLatency', { latencyMs: Math.round(database.latencyMs) });
  const migrationsText =
    migrations.pending.length === 0
      ? t('screens.systemStatus.migrationsUpToDate')
      : t('screens.systemStatus.migrationsPending', { count: migrations.pending.length });

  return (
    <Stack gap="sm" component="dl" m={0}>
      <CheckRow label={t('screens.systemStatus.database')} ok={database.ok} value={databaseText} />
      <CheckRow label={t('screens.systemStatus.migrations')} ok={migrations.ok} value={migrationsText} />
    </Stack>
  );
}

function CheckRow({ label, ok, value }: { label: string; ok: boolean; value: string }) {
  const StatusIcon = ok ? IconCircleCheckFilled : IconCircleXFilled;
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm">
      <Text component="dt" fz="sm" fw={500}>
        {label}
      </Text>
      <Group component="dd" m={0} gap={6} wrap="nowrap">
        <StatusIcon
          size={16}
          aria-hidden
          color={ok ? 'var(--mantine-color-teal-6)' : 'var(--mantine-color-red-6)'}
        />
        <Text fz="sm" c={ok ? undefined : 'red.7'}>
          {value}
        </Text>
      </Group>
    </Group>
  );
}
