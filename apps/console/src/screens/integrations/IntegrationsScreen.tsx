import { Badge, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconPlugConnected } from '@tabler/icons-react';
import {
  crmProviderIdSchema,
  errorCodeSchema,
  type CrmProvider,
  type Integration,
} from '@verbatim/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { EmptyState } from '../../chrome/EmptyState';
import { QueryContent } from '../../chrome/QueryContent';
import { notify } from '../../notifications/notify';
import { formatDateTime } from '../../format/dateTime';
import { ConnectProviderCard, OAuthButton } from './ConnectProviderCard';
import { ContactBrowser } from './ContactBrowser';
import { DisconnectModal } from './DisconnectModal';
import { integrationsQuery, providersQuery } from './integrationsApi';

/**
 * /integrations (spec §1, §3 Integration, §7): connect HubSpot or Pipedrive by OAuth or with a
 * personal token, see each connection's status, reconnect or disconnect it, and browse its contacts.
 */
export function IntegrationsScreen() {
  const { t } = useTranslation();
  const connectionsHeadingId = useId();
  const providers = useQuery(providersQuery);
  const integrations = useQuery(integrationsQuery);
  const [toDisconnect, setToDisconnect] = useState<Integration | null>(null);
  const [reconnecting, setReconnecting] = useState<string | null>(null);
  useOAuthOutcome();

  const providerOf = (id: string): CrmProvider | undefined =>
    providers.data?.providers.find((provider) => provider.id === id);

  return (
    <Stack gap="xl" py="md">
      <Stack gap="xs">
        <Title order={1}>{t('screens.integrations.title')}</Title>
        <Text c="dimmed">{t('screens.integrations.intro')}</Text>
      </Stack>

      <QueryContent query={providers} failedText={t('screens.integrations.loadFailed')}>
        {(data) => (
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
            {data.providers.map((provider) => (
              <ConnectProviderCard
                key={provider.id}
                provider={provider}
                tokenFormOpened={reconnecting === provider.id}
                onTokenFormClosed={() => setReconnecting(null)}
              />
            ))}
          </SimpleGrid>
        )}
      </QueryContent>

      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={connectionsHeadingId}>
        <Stack gap="md">
          <Title order={2} fz="lg" id={connectionsHeadingId}>
            {t('screens.integrations.connectionsTitle')}
          </Title>
          <QueryContent
            query={integrations}
            failedText={t('screens.integrations.loadFailed')}
            isEmpty={(data) => data.integrations.length === 0}
            empty={
              <EmptyState
                icon={IconPlugConnected}
                title={t('screens.integrations.emptyTitle')}
                text={t('screens.integrations.emptyText')}
              />
            }
          >
            {(data) => (
              <Table.ScrollContainer minWidth={560}>
                <Table verticalSpacing="sm" aria-labelledby={connectionsHeadingId}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('screens.integrations.table.provider')}</Table.Th>
                      <Table.Th>{t('screens.integrations.table.account')}</Table.Th>
                      <Table.Th>{t('screens.integrations.table.status')}</Table.Th>
                      <Table.Th>{t('screens.integrations.table.connected')}</Table.Th>
                      <Table.Th>{t('screens.integrations.table.actions')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.integrations.map((integration) => {
                      const provider = providerOf(integration.provider);
                      return (
                        <Table.Tr key={integration.id}>
                          <Table.Td>{provider?.name ?? integration.provider}</Table.Td>
                          <Table.Td>{integration.accountName}</Table.Td>
                          <Table.Td>
                            <Badge
                              color={integration.status === 'connected' ? 'teal' : 'orange'}
                              variant="light"
                            >
                              {t(`screens.integrations.status.${integration.status}`)}
                            </Badge>
                          </Table.Td>
                          <Table.Td>{formatDateTime(integration.createdAt)}</Table.Td>
                          <Table.Td>
                            <Group gap="xs" justify="flex-end" wrap="nowrap">
                              <ReconnectButton
                                integration={integration}
                                provider={provider}
                                onTokenForm={() => setReconnecting(integration.provider)}
                              />
                              <Button
                                size="xs"
                                variant="light"
                                color="red"
                                onClick={() => setToDisconnect(integration)}
                              >
                                {t('screens.integrations.disconnect')}
                              </Button>
                            </Group>
                          </Table.Td>
                        </Table.Tr>
                      );
                    })}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </QueryContent>
        </Stack>
      </Card>

      {integrations.data && integrations.data.integrations.length > 0 && (
        <ContactBrowser
          integrations={integrations.data.integrations}
          providers={providers.data?.providers ?? []}
        />
      )}

      <DisconnectModal
        integration={toDisconnect}
        providerName={toDisconnect ? (providerOf(toDisconnect.provider)?.name ?? toDisconnect.provider) : ''}
        onClose={() => setToDisconnect(null)}
      />
    </Stack>
  );
}

/** Reconnect: OAuth again when the connection came through OAuth, otherwise a new token. */
function ReconnectButton({
  integration,
  provider,
  onTokenForm,
}: {
  integration: Integration;
  provider: CrmProvider | undefined;
  onTokenForm: () => void;
}) {
  const { t } = useTranslation();
  const viaOAuth = integration.method === 'oauth' && provider?.connectMethods.includes('oauth');
  return (
    <OAuthButton
      provider={provider}
      enabled={Boolean(viaOAuth)}
      fallback={onTokenForm}
      variant={integration.status === 'needs_reconnect' ? 'filled' : 'default'}
      label={t('screens.integrations.reconnect')}
    />
  );
}

/** The OAuth callback returns here with `?connected=…` or `?error=CODE`: say how it went, once. */
function useOAuthOutcome() {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const connected = searchParams.get('connected');
  const error = searchParams.get('error');
  const provider = crmProviderIdSchema.safeParse(searchParams.get('provider')).data;
  useEffect(() => {
    if (!connected && !error) return;
    if (connected) {
      notify.success({ title: t('toast.successTitle'), message: t('toast.integrationConnected') });
    } else {
      const code = errorCodeSchema.safeParse(error).data ?? 'CRM_PROVIDER_ERROR';
      notify.error({ title: t('toast.integrationConnectFailed'), message: t(`apiErrors.${code}`) });
    }
    setSearchParams({}, { replace: true });
  }, [connected, error, provider, setSearchParams, t]);
}
