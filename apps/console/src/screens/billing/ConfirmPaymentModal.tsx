import { Alert, Button, Divider, Group, Modal, Stack, Text } from '@mantine/core';
import { IconInfoCircle, IconLock } from '@tabler/icons-react';
import type { VatRate } from '@verbatim/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CheckoutAmounts } from './checkoutAmounts';
import { useMoneyFormat } from './moneyFormat';
import type { TopUpFormOutput } from './topUpFormSchema';

/** What Checkout found: the checked form, the server's VAT answer and the amounts they make. */
export interface PaymentReview {
  form: TopUpFormOutput;
  rate: VatRate;
  /** The customer's country in the interface language. */
  countryName: string;
  amounts: CheckoutAmounts;
}

export interface ConfirmPaymentModalProps {
  review: PaymentReview;
  opened: boolean;
  onClose: () => void;
  onConfirm: () => void;
  pending: boolean;
}

/** Spec §2 Modals, confirm payment: credits, VAT rate, VAT and total before leaving for the card checkout. */
export function ConfirmPaymentModal({
  review,
  opened,
  onClose,
  onConfirm,
  pending,
}: ConfirmPaymentModalProps) {
  const { t } = useTranslation();
  const money = useMoneyFormat();
  const { form, rate, countryName, amounts } = review;

  return (
    <Modal opened={opened} onClose={onClose} title={t('screens.billing.confirm.title')} centered>
      <Stack gap="md">
        <Text fz="sm" c="dimmed">
          {t('screens.billing.confirm.intro')}
        </Text>
        <Stack gap={6} component="dl" m={0} data-testid="payment-summary">
          <SummaryRow label={t('screens.billing.confirm.billedTo')}>
            {form.customerType === 'company' ? form.company_name : form.full_name}
          </SummaryRow>
          <SummaryRow label={t('screens.billing.confirm.country')}>{countryName}</SummaryRow>
          {form.vat_number !== '' && (
            <SummaryRow label={t('screens.billing.confirm.vatNumber')}>
              {rate.vatNumber ?? form.vat_number}
            </SummaryRow>
          )}
          <SummaryRow label={t('screens.billing.confirm.paymentMethod')}>
            {t(`screens.billing.paymentMethods.${form.paymentMethod}`)}
          </SummaryRow>
          <Divider my={4} />
          <SummaryRow label={t('screens.billing.confirm.credits')}>
            {money.cents(amounts.creditsCents)}
          </SummaryRow>
          <SummaryRow label={t('screens.billing.confirm.vatRate')}>
            {money.percent(amounts.vatRate)}
          </SummaryRow>
          <SummaryRow label={t('screens.billing.confirm.vat')}>{money.cents(amounts.vatCents)}</SummaryRow>
          <Divider my={4} />
          <SummaryRow label={t('screens.billing.confirm.total')} strong>
            {money.cents(amounts.totalCents)}
          </SummaryRow>
        </Stack>
        {rate.reverseCharge && (
          <Alert
            color="blue"
            variant="light"
            icon={<IconInfoCircle size={18} aria-hidden />}
            title={t('screens.billing.confirm.reverseChargeTitle')}
          >
            {t('screens.billing.confirm.reverseChargeNote')}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={pending}>
            {t('screens.billing.confirm.cancel')}
          </Button>
          <Button
            onClick={onConfirm}
            loading={pending}
            leftSection={<IconLock size={16} aria-hidden />}
            data-autofocus
          >
            {t('screens.billing.confirm.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function SummaryRow({
  label,
  strong = false,
  children,
}: {
  label: string;
  strong?: boolean;
  children: ReactNode;
}) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm">
      <Text component="dt" fz="sm" fw={strong ? 700 : 500}>
        {label}
      </Text>
      <Text component="dd" m={0} fz="sm" fw={strong ? 700 : undefined} ta="right">
        {children}
      </Text>
    </Group>
  );
}
