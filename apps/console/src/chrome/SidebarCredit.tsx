import { Paper, Skeleton, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { IconCoins } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatCreditBalance } from '../format/money';
import { currentLanguage } from '../i18n/createI18n';
import { creditPollIntervalMs, settingsQuery } from '../settings/settingsApi';

/**
 * The remaining credit in dollars (spec §1), from GET /settings, polled every 300000 ms (spec §4, §9).
 * In the rail only an icon shows, with the amount in its tooltip and accessible name.
 * The card takes its place before the amount arrives: appearing later, it would push every link
 * below it down under a pointer already on its way to one.
 */
export function SidebarCredit({ rail }: { rail: boolean }) {
  const { t, i18n } = useTranslation();
  const settings = useQuery({ ...settingsQuery, refetchInterval: creditPollIntervalMs });
  const balance = settings.data
    ? formatCreditBalance(settings.data.thirdPartyApi.credits, currentLanguage(i18n))
    : undefined;
  const label =
    balance === undefined ? t('chrome.sidebar.creditLabel') : t('chrome.sidebar.credit', { balance });

  if (rail) {
    return (
      <Tooltip label={label} position="right" withArrow>
        <ThemeIcon variant="light" size={36} radius="md" mx="auto" mb={4} aria-label={label} role="img">
          <IconCoins size={20} stroke={1.6} aria-hidden />
        </ThemeIcon>
      </Tooltip>
    );
  }
  return (
    <Paper withBorder radius="md" p="sm" mb={4} data-testid="sidebar-credit">
      <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
        {t('chrome.sidebar.creditLabel')}
      </Text>
      {balance !== undefined ? (
        <Text fz="lg" fw={700} data-testid="credit-balance">
          {balance}
        </Text>
      ) : settings.isPending ? (
        // Children keep the skeleton the height of the amount it stands for.
        <Skeleton w={96} aria-label={t('chrome.loading')}>
          <Text fz="lg" fw={700}>
            {'\u00a0'}
          </Text>
        </Skeleton>
      ) : (
        <Text fz="lg" fw={700}>
          {t('chrome.sidebar.creditUnavailable')}
        </Text>
      )}
    </Paper>
  );
}
