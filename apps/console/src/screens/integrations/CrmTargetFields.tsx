import { Button, Group, SegmentedControl, Select, Stack, TextInput } from '@mantine/core';
import type { CrmDeliveryKind, Integration, SendToCrmRequest } from '@verbatim/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { contactsQuery } from './integrationsApi';

export interface CrmTargetFieldsProps {
  /** The account's connections (at least one). */
  integrations: readonly Integration[];
  /** The subject a task starts with. */
  defaultSubject: string;
  /** The request the fields make up; null while no contact is picked or a task lacks its subject or due date. */
  onChange: (request: SendToCrmRequest | null) => void;
  disabled?: boolean;
}

/**
 * Where a transcript goes in a CRM: a connection, a contact found by search, a note or a task with
 * its subject and due date. No form of its own, so it fits inside another (the upload modal's).
 */
export function CrmTargetFields({ integrations, defaultSubject, onChange, disabled }: CrmTargetFieldsProps) {
  const { t } = useTranslation();
  const [integrationId, setIntegrationId] = useState<string | null>(null);
  const [draft, setDraft] = useState('');
  const [search, setSearch] = useState('');
  const [contactId, setContactId] = useState<string | null>(null);
  const [kind, setKind] = useState<CrmDeliveryKind>('note');
  const [subject, setSubject] = useState(defaultSubject);
  const [dueAt, setDueAt] = useState(() => new Date(Date.now() + 86_400_000).toISOString().slice(0, 16));
  const connection = integrations.find((candidate) => candidate.id === integrationId) ?? integrations[0];
  const contacts = useInfiniteQuery({
    ...contactsQuery(connection?.id ?? '', search),
    enabled: Boolean(connection),
  });

  useEffect(() => {
    const dueDate = new Date(dueAt);
    if (!connection || !contactId) onChange(null);
    else if (kind === 'note') onChange({ integrationId: connection.id, contactId, as: 'note' });
    else if (!subject.trim() || Number.isNaN(dueDate.getTime())) onChange(null);
    else {
      onChange({
        integrationId: connection.id,
        contactId,
        as: 'task',
        task: { subject: subject.trim(), dueAt: dueDate.toISOString() },
      });
    }
  }, [connection, contactId, kind, subject, dueAt, onChange]);

  const options = (contacts.data?.pages ?? []).flatMap((page) =>
    page.contacts.map((contact) => ({
      value: contact.id,
      label: [contact.name, contact.email].filter(Boolean).join(' · '),
    })),
  );
  const runSearch = () => {
    setSearch(draft.trim());
    setContactId(null);
  };

  return (
    <Stack gap="md">
      <Select
        label={t('screens.integrations.connection')}
        data={integrations.map((candidate) => ({
          value: candidate.id,
          label: `${candidate.provider === 'hubspot' ? 'HubSpot' : 'Pipedrive'} · ${candidate.accountName}`,
        }))}
        value={connection?.id ?? null}
        onChange={(value) => {
          setIntegrationId(value);
          setContactId(null);
        }}
        allowDeselect={false}
        disabled={disabled}
      />
      <Group align="flex-end" gap="xs">
        <TextInput
          label={t('screens.integrations.send.findContact')}
          placeholder={t('screens.integrations.searchPlaceholder')}
          value={draft}
          onChange={(event) => setDraft(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key !== 'Enter') return;
            event.preventDefault();
            runSearch();
          }}
          maxLength={200}
          style={{ flex: 1 }}
          disabled={disabled}
        />
        <Button variant="default" onClick={runSearch} disabled={disabled}>
          {t('screens.integrations.searchButton')}
        </Button>
      </Group>
      <Select
        label={t('screens.integrations.send.contact')}
        placeholder={contacts.isFetching ? t('chrome.loading') : t('screens.integrations.send.pickContact')}
        data={options}
        value={contactId}
        onChange={setContactId}
        searchable
        nothingFoundMessage={t('screens.integrations.noContacts')}
        disabled={disabled}
      />
      <SegmentedControl
        value={kind}
        onChange={(value) => setKind(value === 'task' ? 'task' : 'note')}
        data={[
          { value: 'note', label: t('screens.integrations.send.asNote') },
          { value: 'task', label: t('screens.integrations.send.asTask') },
        ]}
        aria-label={t('screens.integrations.send.as')}
        disabled={disabled}
      />
      {kind === 'task' && (
        <Group grow>
          <TextInput
            label={t('screens.integrations.send.subject')}
            value={subject}
            onChange={(event) => setSubject(event.currentTarget.value)}
            maxLength={200}
            required
            disabled={disabled}
          />
          <TextInput
            type="datetime-local"
            label={t('screens.integrations.send.dueAt')}
            value={dueAt}
            onChange={(event) => setDueAt(event.currentTarget.value)}
            required
            disabled={disabled}
          />
        </Group>
      )}
    </Stack>
  );
}
