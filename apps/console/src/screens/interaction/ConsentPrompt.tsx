import { Button, Group, List, Stack, Text } from '@mantine/core';
import type { InteractionDetails } from '@verbatim/contracts';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { documentNavigation } from '../../app/documentNavigation';
import { answerInteraction } from './interactionApi';

const knownScopes = ['openid', 'email', 'profile', 'offline_access', 'api'] as const;
type KnownScope = (typeof knownScopes)[number];
const isKnownScope = (scope: string): scope is KnownScope =>
  (knownScopes as readonly string[]).includes(scope);

/** Spec §2: 'Allow user access to:' with the requested scopes, Allow or Deny. */
export function ConsentPrompt({ details }: { details: InteractionDetails }) {
  const { t } = useTranslation();
  const answer = useMutation({
    mutationFn: (choice: 'consent' | 'abort') => answerInteraction(details.uid, choice),
    meta: { successMessage: false },
    onSuccess: ({ redirectTo }) => documentNavigation.assign(redirectTo),
  });
  return (
    <Stack gap="md">
      <Text fw={600}>{t('screens.interaction.allowAccess')}</Text>
      <List spacing={4}>
        {details.requestedScopes.map((scope) => (
          <List.Item key={scope}>
            {isKnownScope(scope) ? t(`screens.interaction.scopes.${scope}`) : scope}{' '}
            <Text component="span" ff="monospace" c="dimmed" size="sm">
              ({scope})
            </Text>
          </List.Item>
        ))}
      </List>
      <Group justify="flex-end">
        <Button
          variant="default"
          onClick={() => answer.mutate('abort')}
          loading={answer.isPending && answer.variables === 'abort'}
        >
          {t('screens.interaction.deny')}
        </Button>
        <Button
          onClick={() => answer.mutate('consent')}
          loading={answer.isPending && answer.variables === 'consent'}
        >
          {t('screens.interaction.allow')}
        </Button>
      </Group>
    </Stack>
  );
}
