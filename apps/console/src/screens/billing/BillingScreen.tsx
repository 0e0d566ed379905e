import { Button, Grid, Group, Stack, Text, Title } from '@mantine/core';
import { IconReceipt } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { billingHistoryPath } from '../../app/paths';
import { CenteredLoader } from '../../chrome/CenteredLoader';
import { useProfile } from '../../profile/useProfile';
// Usage and prices is the same card as on the API screen: one query, one presentation.
import { UsageCard } from '../apiKeys/UsageCard';
import { BalanceCard } from './BalanceCard';
import { TopUpForm } from './TopUpForm';

/** Billing and limits (spec §2 /billing): the credit left, usage per product and the top-up form. */
export function BillingScreen() {
  const { t } = useTranslation();
  const profile = useProfile();

  return (
    <Stack gap="lg" py="md">
      <Group justify="space-between" align="flex-end" gap="sm">
        <div>
          <Title order={1}>{t('screens.billing.title')}</Title>
          <Text c="dimmed" mt={4}>
            {t('screens.billing.intro')}
          </Text>
        </div>
        <Button
          component={Link}
          to={billingHistoryPath}
          variant="light"
          leftSection={<IconReceipt size={18} aria-hidden />}
        >
          {t('screens.billing.historyLink')}
        </Button>
      </Group>
      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, md: 4 }}>
          <BalanceCard />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <UsageCard />
        </Grid.Col>
      </Grid>
      {/* The form is prefilled from the profile, so it waits for it (or for its failure). */}
      {profile.isPending ? <CenteredLoader /> : <TopUpForm profile={profile.data} />}
    </Stack>
  );
}
