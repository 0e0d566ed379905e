import { ActionIcon, Group, Text, Tooltip } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import type { Payment } from '@verbatim/contracts';
import { useTranslation } from 'react-i18next';
import { downloadInvoice } from './billingApi';

/** The invoice number with a button that saves the PDF; a dash while there is no invoice. */
export function InvoiceCell({ payment }: { payment: Payment }) {
  const { t } = useTranslation();
  const download = useMutation({
    mutationFn: ({ location, number }: { location: string; number: string }) =>
      downloadInvoice(location, number),
    meta: { successMessage: false, errorMessage: 'screens.billingHistory.downloadFailed' },
  });
  const { invoiceNumber, invoiceEnLocation } = payment;
  if (!invoiceNumber) return <Text fz="sm">-</Text>;

  const label = t('screens.billingHistory.downloadInvoice', { number: invoiceNumber });
  return (
    <Group gap={6} wrap="nowrap">
      <Text fz="sm" ff="monospace">
        {invoiceNumber}
      </Text>
      {invoiceEnLocation && (
        <Tooltip label={label} withArrow>
          <ActionIcon
            variant="subtle"
            aria-label={label}
            loading={download.isPending}
            onClick={() => download.mutate({ location: invoiceEnLocation, number: invoiceNumber })}
          >
            <IconDownload size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}
