import { Alert, Anchor, Button, Card, Group, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { connectIntegrationRequestSchema, type CrmProvider } from '@verbatim/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ApiRequestError } from '../../api/ApiRequestError';
import { connectIntegration, integrationsQuery } from './integrationsApi';

const tokenFormSchema = z.object({ token: connectIntegrationRequestSchema.shape.token.unwrap() });
type TokenForm = z.infer<typeof tokenFormSchema>;

/** Where each provider's personal token is found, for the help under the token field. */
const tokenHelpUrl: Record<CrmProvider['id'], string> = {
  hubspot: 'https://knowledge.hubspot.com/integrations/how-do-i-get-my-hubspot-api-key',
  pipedrive: 'https://support.pipedrive.com/en/article/how-can-i-find-my-personal-api-key',
};

export interface ConnectProviderCardProps {
  provider: CrmProvider;
  /** Opened from outside: reconnecting a token connection. */
  tokenFormOpened: boolean;
  onTokenFormClosed: () => void;
}

/** One CRM: connect it by OAuth (when this server has the provider's app) or with a personal token. */
export function ConnectProviderCard({
  provider,
  tokenFormOpened,
  onTokenFormClosed,
}: ConnectProviderCardProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const [formOpened, setFormOpened] = useState(false);
  useEffect(() => {
    if (tokenFormOpened) setFormOpened(true);
  }, [tokenFormOpened]);
  const close = () => {
    setFormOpened(false);
    onTokenFormClosed();
  };

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} fz="lg" id={headingId}>
          {provider.name}
        </Title>
        <Text fz="sm" c="dimmed">
          {t(`screens.integrations.providers.${provider.id}`)}
        </Text>
        <Group gap="sm">
          {provider.connectMethods.includes('oauth') && (
            <OAuthButton
              provider={provider}
              enabled
              fallback={() => setFormOpened(true)}
              variant="filled"
              label={t('screens.integrations.connectWith', { provider: provider.name })}
            />
          )}
          {!formOpened && (
            <Button
              variant={provider.connectMethods.includes('oauth') ? 'default' : 'filled'}
              onClick={() => setFormOpened(true)}
            >
              {t('screens.integrations.useToken')}
            </Button>
          )}
        </Group>
        {formOpened && <TokenForm provider={provider} onDone={close} />}
      </Stack>
    </Card>
  );
}

function TokenForm({ provider, onDone }: { provider: CrmProvider; onDone: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm<TokenForm>({ resolver: zodResolver(tokenFormSchema), defaultValues: { token: '' } });
  const connect = useMutation({
    mutationFn: (token: string) => connectIntegration({ provider: provider.id, token }),
    meta: {
      successMessage: 'toast.integrationConnected',
      errorMessage: 'toast.integrationConnectFailed',
      handledErrorCodes: ['CRM_PROVIDER_ERROR', 'CRM_UNREACHABLE'],
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: integrationsQuery.queryKey });
      form.reset();
      onDone();
    },
  });
  const failure = connect.error instanceof ApiRequestError ? connect.error.code : null;

  return (
    <form
      onSubmit={(event) => void form.handleSubmit(({ token }) => connect.mutate(token))(event)}
      noValidate
    >
      <Stack gap="sm">
        <PasswordInput
          label={t('screens.integrations.tokenLabel', { provider: provider.name })}
          description={
            <>
              {t(`screens.integrations.tokenHelp.${provider.id}`)}{' '}
              <Anchor href={tokenHelpUrl[provider.id]} target="_blank" rel="noopener noreferrer" fz="xs">
                {t('screens.integrations.tokenHelpLink')}
              </Anchor>
            </>
          }
          autoComplete="off"
          error={form.formState.errors.token ? t('screens.integrations.tokenInvalid') : undefined}
          {...form.register('token')}
        />
        {failure && (
          <Alert color="red" variant="light" role="alert">
            {t(`apiErrors.${failure}`)}
          </Alert>
        )}
        <Group gap="sm">
          <Button type="submit" loading={connect.isPending}>
            {t('screens.integrations.connect')}
          </Button>
          <Button variant="default" onClick={onDone} disabled={connect.isPending}>
            {t('screens.integrations.cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Sends the browser to the provider's authorization page (the callback brings it back here). */
export function OAuthButton({
  provider,
  enabled,
  fallback,
  variant,
  label,
}: {
  provider: CrmProvider | undefined;
  /** False: this connection cannot use OAuth here; the button opens the token form instead. */
  enabled: boolean;
  fallback: () => void;
  variant: 'filled' | 'default';
  label: string;
}) {
  const authorize = useMutation({
    mutationFn: async () => {
      if (!provider) throw new Error('unknown provider');
      const answer = await connectIntegration({ provider: provider.id });
      if (answer.kind !== 'authorize') throw new Error('expected an authorization page');
      window.location.assign(answer.authorizeUrl);
    },
    meta: { successMessage: false, errorMessage: 'toast.integrationConnectFailed' },
  });
  return (
    <Button
      size={enabled ? 'sm' : 'xs'}
      variant={variant}
      loading={authorize.isPending}
      onClick={() => (enabled ? authorize.mutate() : fallback())}
    >
      {label}
    </Button>
  );
}
