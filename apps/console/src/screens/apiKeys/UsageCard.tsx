import { Card, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDuration } from '../../format/dateTime';
import { formatCents, formatPricePerHour } from '../../format/money';
import { currentLanguage } from '../../i18n/createI18n';
import { usagesQuery } from './apiKeysApi';

/** GET /limiter/usages: what each product costs and what the account has used of it. */
export function UsageCard() {
  const { t, i18n } = useTranslation();
  const headingId = useId();
  const usages = useQuery(usagesQuery);
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} fz="lg" id={headingId}>
          {t('screens.apiKeys.usage.title')}
        </Title>
        <Text fz="sm" c="dimmed">
          {t('screens.apiKeys.usage.intro')}
        </Text>
        {usages.isPending ? (
          <Loader size="sm" aria-label={t('chrome.loading')} />
        ) : usages.isError ? (
          <Text c="red" fz="sm" role="alert">
            {t('screens.apiKeys.usage.failed')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={480}>
            <Table verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('screens.apiKeys.usage.product')}</Table.Th>
                  <Table.Th>{t('screens.apiKeys.usage.price')}</Table.Th>
                  <Table.Th>{t('screens.apiKeys.usage.audio')}</Table.Th>
                  <Table.Th>{t('screens.apiKeys.usage.cost')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {usages.data.map((usage) => (
                  <Table.Tr key={usage.name}>
                    <Table.Td>{t(`screens.apiKeys.products.${usage.name}`)}</Table.Td>
                    <Table.Td>
                      {t('screens.apiKeys.usage.perHour', {
                        price: formatPricePerHour(usage.pricePerHourMicros, currentLanguage(i18n)),
                      })}
                    </Table.Td>
                    <Table.Td>{formatDuration(usage.seconds)}</Table.Td>
                    <Table.Td>{formatCents(usage.currentUsage, currentLanguage(i18n))}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Card>
  );
}
