import { Card, Skeleton, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCreditBalance } from '../../format/money';
import { currentLanguage } from '../../i18n/createI18n';
import { creditPollIntervalMs, settingsQuery } from '../../settings/settingsApi';

/** The remaining prepaid credit, (ceiling − currentUsage) / 100 dollars (spec §9), polled like the sidebar's. */
export function BalanceCard() {
  const { t, i18n } = useTranslation();
  const headingId = useId();
  const settings = useQuery({ ...settingsQuery, refetchInterval: creditPollIntervalMs });

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId} h="100%">
      <Title order={2} fz="lg" id={headingId} mb="xs">
        {t('screens.billing.balanceHeading')}
      </Title>
      {settings.isPending ? (
        <Skeleton h={36} w={140} aria-label={t('chrome.loading')} />
      ) : settings.isError ? (
        <Text c="dimmed">{t('screens.billing.balanceUnavailable')}</Text>
      ) : (
        <Text fz={32} fw={700} data-testid="billing-balance">
          {formatCreditBalance(settings.data.thirdPartyApi.credits, currentLanguage(i18n))}
        </Text>
      )}
      <Text fz="sm" c="dimmed" mt="xs">
        {t('screens.billing.balanceHint')}
      </Text>
    </Card>
  );
}
