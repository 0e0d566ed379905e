import { Paper, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { IconCoins } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatCreditBalance } from '../format/money';
import { currentLanguage } from '../i18n/createI18n';
import { creditPollIntervalMs, settingsQuery } from '../settings/settingsApi';

/**
 * The remaining credit in dollars (spec §1), from GET /settings, polled every 300000 ms (spec §4, §9).
 * In the rail only an icon shows, with the amount in its tooltip and accessible name.
 */
export function SidebarCredit({ rail }: { rail: boolean }) {
  const { t, i18n } = useTranslation();
  const settings = useQuery({ ...settingsQuery, refetchInterval: creditPollIntervalMs });
  if (!settings.data) return null;
  const balance = formatCreditBalance(settings.data.thirdPartyApi.credits, currentLanguage(i18n));
  const label = t('chrome.sidebar.credit', { balance });

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
      <Text fz="lg" fw={700} data-testid="credit-balance">
        {balance}
      </Text>
    </Paper>
  );
}
