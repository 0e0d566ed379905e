import { Button, Card, Center, Group, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowRight, IconCircleCheck } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { homePath } from '../../app/paths';
import { formatCreditBalance } from '../../format/money';
import { currentLanguage } from '../../i18n/createI18n';
import { settingsQuery } from '../../settings/settingsApi';
import { billingQueryKey } from '../billing/billingApi';

/** Spec §4 and §9: the success page counts down 10 s, then goes to Getting started. */
export const paymentSuccessCountdownSeconds = 10;

/**
 * While this page shows, the balance is read every 2 s: the provider's webhook credits the account
 * moments after the customer lands here, and the shared settings entry carries the new balance to
 * the sidebar too.
 */
const landingPollMs = 2_000;

/** /payment/success/{sessionId}: where the card provider sends the customer back after paying. */
export function PaymentSuccessScreen() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { sessionId } = useParams();
  const [secondsLeft, setSecondsLeft] = useState(paymentSuccessCountdownSeconds);
  const settings = useQuery({ ...settingsQuery, refetchInterval: landingPollMs });

  useEffect(() => {
    // The history and usage read before the payment are out of date now.
    void queryClient.invalidateQueries({ queryKey: billingQueryKey });
  }, [queryClient]);

  useEffect(() => {
    const timer = setInterval(() => setSecondsLeft((seconds) => Math.max(0, seconds - 1)), 1000);
    return () => clearInterval(timer);
  }, []);

  useEffect(() => {
    if (secondsLeft === 0) void navigate(homePath, { replace: true });
  }, [secondsLeft, navigate]);

  return (
    <Center py="xl">
      <Card withBorder radius="md" padding="xl" maw={520} w="100%">
        <Stack align="center" gap="md" ta="center">
          <ThemeIcon size={64} radius="xl" color="teal" variant="light">
            <IconCircleCheck size={40} stroke={1.6} aria-hidden />
          </ThemeIcon>
          <Title order={1} fz={{ base: 24, sm: 28 }}>
            {t('screens.paymentSuccess.heading')}
          </Title>
          <Text c="dimmed">{t('screens.paymentSuccess.message')}</Text>
          <Stack gap={2} align="center">
            <Text fz="sm" c="dimmed">
              {t('screens.paymentSuccess.balance')}
            </Text>
            {settings.data === undefined ? (
              <Skeleton h={32} w={120} aria-label={t('chrome.loading')} />
            ) : (
              <Text fz={28} fw={700} data-testid="landing-balance" aria-live="polite">
                {formatCreditBalance(settings.data.thirdPartyApi.credits, currentLanguage(i18n))}
              </Text>
            )}
          </Stack>
          <Text role="timer" aria-live="off" data-testid="countdown">
            {t('screens.paymentSuccess.countdown', { count: secondsLeft })}
          </Text>
          <Group justify="center">
            <Button
              onClick={() => void navigate(homePath, { replace: true })}
              rightSection={<IconArrowRight size={18} aria-hidden />}
              data-autofocus
            >
              {t('screens.paymentSuccess.continue')}
            </Button>
          </Group>
          {sessionId && (
            <Text fz="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
              {t('screens.paymentSuccess.reference', { sessionId })}
            </Text>
          )}
        </Stack>
      </Card>
    </Center>
  );
}
