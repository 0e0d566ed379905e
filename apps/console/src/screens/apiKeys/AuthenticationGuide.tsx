import { Anchor, Card, Code, Group, Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { apiReferencePath } from '../../app/paths';
import { CopyValueButton } from '../../clipboard/CopyValueButton';
import { useConsoleConfig } from '../../runtimeConfig/consoleConfigQuery';

/** The variable the examples read the key from, so the key itself stays out of shell history. */
const keyVariable = '$VERBATIM_API_KEY';

/** How to authenticate with a key, with examples for this installation's address. */
export function AuthenticationGuide({ origin }: { origin: string }) {
  const { t } = useTranslation();
  const headingId = useId();
  // A call each edition answers: the on-premise edition has no credit usage, but its licence.
  const bearerPath =
    useConsoleConfig().data?.edition === 'on_premise'
      ? '/api/v1/licensing/installation'
      : '/api/v1/limiter/usages';
  const examples = [
    {
      id: 'bearer',
      label: t('screens.apiKeys.guide.bearerExample'),
      command: `curl -H "Authorization: Bearer ${keyVariable}" ${origin}${bearerPath}`,
    },
    {
      id: 'header',
      label: t('screens.apiKeys.guide.headerExample'),
      command: `curl -H "x-api-key: ${keyVariable}" ${origin}/api/v1/settings`,
    },
  ];
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} fz="lg" id={headingId}>
          {t('screens.apiKeys.guide.title')}
        </Title>
        <Text fz="sm">
          <Trans i18nKey="screens.apiKeys.guide.intro" components={{ bearer: <Code />, header: <Code /> }} />
        </Text>
        {examples.map((example) => (
          <Stack key={example.id} gap={4}>
            <Group justify="space-between" wrap="nowrap">
              <Text fz="sm" fw={600}>
                {example.label}
              </Text>
              <CopyValueButton value={example.command} label={t('screens.apiKeys.guide.copyExample')} />
            </Group>
            <Code
              block
              data-testid={`auth-example-${example.id}`}
              style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
            >
              {example.command}
            </Code>
          </Stack>
        ))}
        <Text fz="sm">
          <Trans i18nKey="screens.apiKeys.guide.socket" components={{ query: <Code /> }} />
        </Text>
        <Text fz="sm" c="dimmed">
          {t('screens.apiKeys.guide.keepSecret')}{' '}
          <Anchor href={apiReferencePath} target="_blank" fz="sm">
            {t('screens.apiKeys.guide.reference')}
          </Anchor>
        </Text>
      </Stack>
    </Card>
  );
}
