import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  Modal,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import type { CrmDeliveryKind } from '@verbatim/contracts';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../api/ApiRequestError';
import { contactsQuery, crmDeliveriesQuery, integrationsQuery, sendToCrm } from './integrationsApi';

export interface SendToCrmModalProps {
  /** The done transcript to send (a submitted file's id); the modal is open while there is one. */
  transcript: { id: string; name: string } | null;
  onClose: () => void;
}

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

function SendToCrmForm({ transcript }: { transcript: { id: string; name: string } }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const integrations = useQuery(integrationsQuery);
  const deliveries = useQuery(crmDeliveriesQuery(transcript.id));
  const [integrationId, setIntegrationId] = useState<string | null>(null);
  const [draft, setDraft] = useState('');
  const [search, setSearch] = useState('');
  const [contactId, setContactId] = useState<string | null>(null);
  const [kind, setKind] = useState<CrmDeliveryKind>('note');
  const [subject, setSubject] = useState(() =>
    t('screens.integrations.send.defaultSubject', { name: transcript.name }),
  );
  const [dueAt, setDueAt] = useState(() => new Date(Date.now() + 86_400_000).toISOString().slice(0, 16));
  const connection =
    integrations.data?.integrations.find((candidate) => candidate.id === integrationId) ??
    integrations.data?.integrations[0];
  const contacts = useInfiniteQuery({
    ...contactsQuery(connection?.id ?? '', search),
    enabled: Boolean(connection),
  });
  const send = useMutation({
    mutationFn: () =>
      sendToCrm(transcript.id, {
        integrationId: connection?.id ?? '',
        contactId: contactId ?? '',
        ...(kind === 'task'
          ? { as: 'task', task: { subject, dueAt: new Date(dueAt).toISOString() } }
          : { as: 'note' }),
      }),
    meta: { successMessage: 'toast.sentToCrm', errorMessage: 'toast.sendToCrmFailed' },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: crmDeliveriesQuery(transcript.id).queryKey }),
  });

  if (integrations.isPending) return <Loader size="sm" aria-label={t('chrome.loading')} />;
  if (!connection) return <Text>{t('screens.integrations.send.noConnection')}</Text>;
  const options = (contacts.data?.pages ?? []).flatMap((page) =>
    page.contacts.map((contact) => ({
      value: contact.id,
      label: [contact.name, contact.email].filter(Boolean).join(' · '),
    })),
  );
  const failure = send.error instanceof ApiRequestError ? send.error.code : null;

  return (
    <Stack gap="md">
      <Text fz="sm">{t('screens.integrations.send.intro', { name: transcript.name })}</Text>
      <Select
        label={t('screens.integrations.connection')}
        data={(integrations.data?.integrations ?? []).map((candidate) => ({
          value: candidate.id,
          label: `${candidate.provider === 'hubspot' ? 'HubSpot' : 'Pipedrive'} · ${candidate.accountName}`,
        }))}
        value={connection.id}
        onChange={(value) => {
          setIntegrationId(value);
          setContactId(null);
        }}
        allowDeselect={false}
      />
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setSearch(draft.trim());
          setContactId(null);
        }}
      >
        <Group align="flex-end" gap="xs">
          <TextInput
            label={t('screens.integrations.send.findContact')}
            placeholder={t('screens.integrations.searchPlaceholder')}
            value={draft}
            onChange={(event) => setDraft(event.currentTarget.value)}
            maxLength={200}
            style={{ flex: 1 }}
          />
          <Button type="submit" variant="default">
            {t('screens.integrations.searchButton')}
          </Button>
        </Group>
      </form>
      <Select
        label={t('screens.integrations.send.contact')}
        placeholder={contacts.isFetching ? t('chrome.loading') : t('screens.integrations.send.pickContact')}
        data={options}
        value={contactId}
        onChange={setContactId}
        searchable
        nothingFoundMessage={t('screens.integrations.noContacts')}
      />
      <SegmentedControl
        value={kind}
        onChange={(value) => setKind(value === 'task' ? 'task' : 'note')}
        data={[
          { value: 'note', label: t('screens.integrations.send.asNote') },
          { value: 'task', label: t('screens.integrations.send.asTask') },
        ]}
        aria-label={t('screens.integrations.send.as')}
      />
      {kind === 'task' && (
        <Group grow>
          <TextInput
            label={t('screens.integrations.send.subject')}
            value={subject}
            onChange={(event) => setSubject(event.currentTarget.value)}
            maxLength={200}
            required
          />
          <TextInput
            type="datetime-local"
            label={t('screens.integrations.send.dueAt')}
            value={dueAt}
            onChange={(event) => setDueAt(event.currentTarget.value)}
            required
          />
        </Group>
      )}
      {failure && (
        <Alert color="red" variant="light" role="alert">
          {t(`apiErrors.${failure}`)}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button
          loading={send.isPending}
          disabled={!contactId || (kind === 'task' && (!subject.trim() || !dueAt))}
          onClick={() => send.mutate()}
        >
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
