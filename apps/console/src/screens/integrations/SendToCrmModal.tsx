import { Alert, Anchor, Badge, Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import type { SendToCrmRequest } from '@verbatim/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../api/ApiRequestError';
import { CrmTargetFields } from './CrmTargetFields';
import { crmDeliveriesQuery, integrationsQuery, sendTextToCrm, sendToCrm } from './integrationsApi';

export interface SendToCrmModalProps {
  /** The done transcript to send (a submitted file's id); the modal is open while there is one. */
  transcript: CrmSource | null;
  onClose: () => void;
}

/**
 * What is sent: a done transcript (`id`: a submitted file's id), or a text that is no stored
 * transcript (a live session's; `id` is null until its first delivery says which it is).
 */
export type CrmSource =
  { id: string; name: string; text?: undefined } | { id: null; name: string; text: string };

/** Send to CRM: a connection, a contact found by search, a note or a task with its subject and due date. */
export function SendToCrmModal({ transcript, onClose }: SendToCrmModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={transcript !== null}
      onClose={onClose}
      title={t('screens.integrations.send.title')}
      centered
      size="lg"
    >
      {transcript && <SendToCrmForm transcript={transcript} />}
    </Modal>
  );
}

function SendToCrmForm({ transcript }: { transcript: CrmSource }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const integrations = useQuery(integrationsQuery);
  const [sentId, setSentId] = useState<string | null>(transcript.id);
  const deliveries = useQuery({ ...crmDeliveriesQuery(sentId ?? ''), enabled: sentId !== null });
  const [target, setTarget] = useState<SendToCrmRequest | null>(null);
  const send = useMutation({
    mutationFn: (crm: SendToCrmRequest) =>
      transcript.text === undefined
        ? sendToCrm(transcript.id, crm)
        : sendTextToCrm({ text: transcript.text, title: transcript.name, crm }),
    meta: { successMessage: 'toast.sentToCrm', errorMessage: 'toast.sendToCrmFailed' },
    onSuccess: (delivery) => {
      setSentId(delivery.transcriptId);
      return queryClient.invalidateQueries({ queryKey: crmDeliveriesQuery(delivery.transcriptId).queryKey });
    },
  });

  if (integrations.isPending) return <Loader size="sm" aria-label={t('chrome.loading')} />;
  const connections = integrations.data?.integrations ?? [];
  if (connections.length === 0) return <Text>{t('screens.integrations.send.noConnection')}</Text>;
  const failure = send.error instanceof ApiRequestError ? send.error.code : null;

  return (
    <Stack gap="md">
      <Text fz="sm">{t('screens.integrations.send.intro', { name: transcript.name })}</Text>
      <CrmTargetFields
        integrations={connections}
        defaultSubject={t('screens.integrations.send.defaultSubject', { name: transcript.name })}
        onChange={setTarget}
      />
      {failure && (
        <Alert color="red" variant="light" role="alert">
          {t(`apiErrors.${failure}`)}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button loading={send.isPending} disabled={!target} onClick={() => target && send.mutate(target)}>
          {t('screens.integrations.send.submit')}
        </Button>
      </Group>
      {deliveries.data && deliveries.data.deliveries.length > 0 && (
        <Stack gap={4} aria-label={t('screens.integrations.send.deliveries')}>
          <Text fw={600} fz="sm">
            {t('screens.integrations.send.deliveries')}
          </Text>
          {deliveries.data.deliveries.map((delivery) => (
            <Group key={delivery.id} gap="xs">
              <Badge
                variant="light"
                color={
                  delivery.status === 'delivered' ? 'teal' : delivery.status === 'failed' ? 'red' : 'gray'
                }
              >
                {t(`screens.integrations.deliveryStatus.${delivery.status}`)}
              </Badge>
              <Text fz="sm">
                {t(`screens.integrations.send.${delivery.kind === 'task' ? 'asTask' : 'asNote'}`)} ·{' '}
                {delivery.contactId}
              </Text>
              {delivery.recordUrl && (
                <Anchor href={delivery.recordUrl} target="_blank" rel="noopener noreferrer" fz="sm">
                  {t('screens.integrations.send.openRecord')}
                </Anchor>
              )}
              {delivery.lastError && delivery.status !== 'delivered' && (
                <Text fz="xs" c="dimmed">
                  {delivery.lastError}
                </Text>
              )}
            </Group>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
