import { Anchor, Badge, Group } from '@mantine/core';
import type { CrmDeliveryStatus } from '@verbatim/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { crmDeliveriesQuery } from '../integrations/integrationsApi';

const colours: Record<CrmDeliveryStatus, string> = {
  queued: 'gray',
  sending: 'blue',
  delivered: 'teal',
  failed: 'red',
  waiting_reconnect: 'orange',
};

/** The latest CRM delivery of a done transcript: its status and, once delivered, the record's link. */
export function CrmDeliveryBadge({ fileId }: { fileId: string }) {
  const { t } = useTranslation();
  const deliveries = useQuery(crmDeliveriesQuery(fileId));
  // Newest first: the latest says where the transcript stands in the CRM.
  const latest = deliveries.data?.deliveries[0];
  if (!latest) return <>-</>;
  return (
    <Group gap={6} wrap="nowrap">
      <Badge
        variant="light"
        color={colours[latest.status]}
        title={latest.status === 'delivered' ? undefined : (latest.lastError ?? undefined)}
      >
        {t('screens.integrations.send.latest', {
          status: t(`screens.integrations.deliveryStatus.${latest.status}`),
        })}
      </Badge>
      {latest.recordUrl && (
        <Anchor href={latest.recordUrl} target="_blank" rel="noopener noreferrer" fz="sm">
          {t('screens.integrations.send.openRecord')}
        </Anchor>
      )}
    </Group>
  );
}
