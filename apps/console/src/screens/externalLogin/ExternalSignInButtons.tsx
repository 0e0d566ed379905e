import { Button, Divider, Stack } from '@mantine/core';
import { IconBrandGithub, IconBrandGoogle } from '@tabler/icons-react';
import type { ExternalProviderId } from '@verbatim/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  externalProvidersQueryKey,
  fetchExternalProviders,
  type RegisteredAs,
  startExternalSignIn,
} from '../../auth/externalSignIn';

const providerIcons = { google: IconBrandGoogle, github: IconBrandGithub } as const;

/**
 * "Continue with Google / GitHub" under the login, interaction and registration forms (spec §2), one button per
 * provider this installation configured; nothing at all when there is none.
 */
export function ExternalSignInButtons({
  registeredAs,
  interactionUid,
}: {
  registeredAs: RegisteredAs;
  /** The sign-in step of another application that this sign-in answers. */
  interactionUid?: string;
}) {
  const { t } = useTranslation();
  const providers = useQuery({
    queryKey: externalProvidersQueryKey,
    queryFn: ({ signal }) => fetchExternalProviders(signal),
    staleTime: Infinity,
  });
  const start = useMutation({
    mutationFn: (provider: ExternalProviderId) =>
      startExternalSignIn(provider, { registeredAs, interactionUid }),
    meta: { successMessage: false, errorMessage: 'apiErrors.EXTERNAL_SIGNIN_FAILED' },
  });

  if (!providers.data?.length) return null;
  // Success means the browser is leaving for the provider: the button keeps spinning until it has.
  const leavingFor = start.isPending || start.isSuccess ? start.variables : undefined;
  return (
    <Stack gap="sm">
      <Divider label={t('screens.externalLogin.or')} labelPosition="center" />
      {providers.data.map(({ id, name }) => {
        const ProviderIcon = providerIcons[id];
        return (
          <Button
            key={id}
            variant="default"
            leftSection={<ProviderIcon size={18} aria-hidden />}
            loading={leavingFor === id}
            disabled={leavingFor !== undefined && leavingFor !== id}
            onClick={() => start.mutate(id)}
          >
            {t('screens.externalLogin.continueWith', { provider: name })}
          </Button>
        );
      })}
    </Stack>
  );
}
