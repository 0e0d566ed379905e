import { Badge } from '@mantine/core';
import type { PaymentStatus } from '@verbatim/contracts';
import { useTranslation } from 'react-i18next';

const colors: Record<PaymentStatus, string> = {
  succeeded: 'teal',
  pending: 'yellow',
  failed: 'red',
  deleted: 'gray',
};

/** Spec §3 Payment status as a reader understands it: Paid, Pending, Failed, Cancelled. */
export function PaymentStatusBadge({ status }: { status: PaymentStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={colors[status]} variant="light">
      {t(`screens.billingHistory.statuses.${status}`)}
    </Badge>
  );
}
