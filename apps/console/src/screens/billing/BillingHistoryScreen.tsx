import { Alert, Anchor, Card, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { paymentsPageSize } from '@verbatim/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { billingPath } from '../../app/paths';
import { usePageParam } from '../../app/usePageParam';
import { ListPagination } from '../../chrome/ListPagination';
import { paymentsPageQuery } from './billingApi';
import { InvoiceCell } from './InvoiceCell';
import { useMoneyFormat } from './moneyFormat';
import { PaymentStatusBadge } from './PaymentStatusBadge';

/** Billing history (spec §2 /billing/history): payments 10 at a time, with their invoices. */
export function BillingHistoryScreen() {
  const { t } = useTranslation();
  const money = useMoneyFormat();
  const [page, setPage] = usePageParam();
  const payments = useQuery(paymentsPageQuery((page - 1) * paymentsPageSize));
  const pageCount = Math.max(1, Math.ceil((payments.data?.total ?? 0) / paymentsPageSize));

  return (
    <Stack gap="lg" py="md">
      <div>
        <Title order={1}>{t('screens.billingHistory.title')}</Title>
        <Text c="dimmed" mt={4}>
          {t('screens.billingHistory.intro')}
        </Text>
      </div>
      <Card withBorder radius="md" padding="lg">
        {payments.isPending && <Skeleton h={160} aria-label={t('chrome.loading')} />}
        {payments.isError && (
          <Alert color="orange" variant="light">
            {t('screens.billingHistory.unavailable')}
          </Alert>
        )}
        {payments.data?.total === 0 && (
          <Stack align="center" gap="xs" py="xl">
            <Text fw={500}>{t('screens.billingHistory.empty')}</Text>
            <Anchor component={Link} to={billingPath} fz="sm">
              {t('screens.billingHistory.topUpLink')}
            </Anchor>
          </Stack>
        )}
        {payments.data && payments.data.total > 0 && payments.data.payments.length === 0 && (
          // A page past the end, from an old link: say so rather than "no payments".
          <Stack align="center" gap="xs" py="xl">
            <Text fw={500}>{t('screens.billingHistory.pageEmpty')}</Text>
            <Anchor component="button" type="button" fz="sm" onClick={() => setPage(1)}>
              {t('screens.billingHistory.firstPage')}
            </Anchor>
          </Stack>
        )}
        {payments.data && payments.data.payments.length > 0 && (
          <Table.ScrollContainer minWidth={680}>
            <Table
              striped
              highlightOnHover
              verticalSpacing="sm"
              aria-label={t('screens.billingHistory.tableLabel')}
            >
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('screens.billingHistory.columns.invoice')}</Table.Th>
                  <Table.Th>{t('screens.billingHistory.columns.paidAt')}</Table.Th>
                  <Table.Th>{t('screens.billingHistory.columns.paidVia')}</Table.Th>
                  <Table.Th ta="right">{t('screens.billingHistory.columns.total')}</Table.Th>
                  <Table.Th>{t('screens.billingHistory.columns.status')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {payments.data.payments.map((payment) => (
                  <Table.Tr key={payment.id}>
                    <Table.Td>
                      <InvoiceCell payment={payment} />
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{money.dateTime(payment.createdAt)}</Table.Td>
                    <Table.Td>{t(`screens.billingHistory.providers.${payment.paymentProvider}`)}</Table.Td>
                    <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                      {money.cents(payment.amount)}
                    </Table.Td>
                    <Table.Td>
                      <PaymentStatusBadge status={payment.status} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <ListPagination total={pageCount} page={page} onChange={setPage} />
      </Card>
    </Stack>
  );
}
