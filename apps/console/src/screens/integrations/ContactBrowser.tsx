import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Loader,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconExternalLink, IconSearch } from '@tabler/icons-react';
import { errorCodeSchema, type CrmContact, type CrmProvider, type Integration } from '@verbatim/contracts';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../api/ApiRequestError';
import { contactsQuery, contactUrlQuery, CrmUnavailableError } from './integrationsApi';

export interface ContactBrowserProps {
  integrations: Integration[];
  providers: CrmProvider[];
}

/** The contacts of a connection: searched, a page at a time (Load more follows `next_page_url`). */
export function ContactBrowser({ integrations, providers }: ContactBrowserProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const [selected, setSelected] = useState<string | null>(null);
  const [draft, setDraft] = useState('');
  const [search, setSearch] = useState('');
  const integration = integrations.find((candidate) => candidate.id === selected) ?? integrations[0];
  const providerName = (id: string) => providers.find((provider) => provider.id === id)?.name ?? id;

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="md">
        <Title order={2} fz="lg" id={headingId}>
          {t('screens.integrations.contactsTitle')}
        </Title>
        <Group align="flex-end" gap="sm">
          <Select
            label={t('screens.integrations.connection')}
            data={integrations.map((candidate) => ({
              value: candidate.id,
              label: `${providerName(candidate.provider)} · ${candidate.accountName}`,
            }))}
            value={integration?.id ?? null}
            onChange={(value) => setSelected(value)}
            allowDeselect={false}
            w={280}
          />
          <form
            role="search"
            onSubmit={(event) => {
              event.preventDefault();
              setSearch(draft.trim());
            }}
          >
            <Group align="flex-end" gap="xs">
              <TextInput
                label={t('screens.integrations.search')}
                placeholder={t('screens.integrations.searchPlaceholder')}
                value={draft}
                onChange={(event) => setDraft(event.currentTarget.value)}
                leftSection={<IconSearch size={16} aria-hidden />}
                maxLength={200}
              />
              <Button type="submit" variant="default">
                {t('screens.integrations.searchButton')}
              </Button>
            </Group>
          </form>
        </Group>
        {integration && (
          <ContactList
            key={`${integration.id}:${search}`}
            integration={integration}
            search={search}
            providerName={providerName(integration.provider)}
          />
        )}
      </Stack>
    </Card>
  );
}

function ContactList({
  integration,
  search,
  providerName,
}: {
  integration: Integration;
  search: string;
  providerName: string;
}) {
  const { t } = useTranslation();
  const contacts = useInfiniteQuery(contactsQuery(integration.id, search));
  if (contacts.isPending) return <Loader size="sm" aria-label={t('chrome.loading')} />;
  if (contacts.isError) {
    const error = contacts.error;
    const code =
      error instanceof ApiRequestError || error instanceof CrmUnavailableError
        ? errorCodeSchema.safeParse(error.code).data
        : undefined;
    return (
      <Alert color="red" variant="light" role="alert">
        {code ? t(`apiErrors.${code}`) : t('screens.integrations.contactsFailed')}
      </Alert>
    );
  }
  const rows = contacts.data.pages.flatMap((page) => page.contacts);
  if (rows.length === 0) return <Text c="dimmed">{t('screens.integrations.noContacts')}</Text>;
  return (
    <Stack gap="sm">
      <Table.ScrollContainer minWidth={640}>
        <Table verticalSpacing="xs" aria-label={t('screens.integrations.contactsTitle')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('screens.integrations.contact.name')}</Table.Th>
              <Table.Th>{t('screens.integrations.contact.email')}</Table.Th>
              <Table.Th>{t('screens.integrations.contact.phone')}</Table.Th>
              <Table.Th>{t('screens.integrations.contact.company')}</Table.Th>
              <Table.Th>{t('screens.integrations.table.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((contact) => (
              <Table.Tr key={contact.id}>
                <Table.Td>{contact.name}</Table.Td>
                <Table.Td>{contact.email ?? '-'}</Table.Td>
                <Table.Td>{contact.phone ?? '-'}</Table.Td>
                <Table.Td>{contact.company ?? '-'}</Table.Td>
                <Table.Td>
                  <ContactLink integration={integration} contact={contact} providerName={providerName} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {contacts.hasNextPage && (
        <Group justify="center">
          <Button
            variant="default"
            loading={contacts.isFetchingNextPage}
            onClick={() => void contacts.fetchNextPage()}
          >
            {t('screens.integrations.loadMore')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

/** "Open in HubSpot": the record page, from GET /contacts/contact-url (no provider call). */
function ContactLink({
  integration,
  contact,
  providerName,
}: {
  integration: Integration;
  contact: CrmContact;
  providerName: string;
}) {
  const { t } = useTranslation();
  const url = useQuery(contactUrlQuery(integration.provider, integration.id, contact));
  if (!url.data) return null;
  return (
    <Anchor href={url.data.url} target="_blank" rel="noopener noreferrer" fz="sm">
      <Group gap={4} wrap="nowrap" component="span">
        {t('screens.integrations.openIn', { provider: providerName })}
        <IconExternalLink size={14} aria-hidden />
      </Group>
    </Anchor>
  );
}
