import { Box, Card, Code, Group, NativeSelect, Stack, Tabs, Text, Title } from '@mantine/core';
import type { ApiKey } from '@verbatim/contracts';
import { useId, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { CopyValueButton } from '../../clipboard/CopyValueButton';
import { useConsoleConfig } from '../../runtimeConfig/consoleConfigQuery';
import {
  activeKeysNewestFirst,
  apiKeyStart,
  type ExampleLanguage,
  keyPlaceholder,
  type TranscriptionExample,
  transcriptionExamples,
} from './transcriptionExamples';

/** Names of programming tools: the same in every language, so they are not translated. */
const tabLabels: Record<ExampleLanguage, string> = {
  curl: 'curl',
  javascript: 'JavaScript',
  python: 'Python',
};
const exampleLanguages = Object.keys(tabLabels) as ExampleLanguage[];

export interface TranscriptionExamplesProps {
  /** The server's public address, e.g. https://verbatim.example.com. */
  origin: string;
  /** The caller's keys, once loaded: the examples name the newest active one by its prefix. */
  keys: readonly ApiKey[] | undefined;
}

/**
 * "Transcribe a recording": copyable calls of `POST /transcripts` and of the OpenAI-compatible
 * `POST /audio/transcriptions` in curl, JavaScript and Python, for this server and the caller's key.
 */
export function TranscriptionExamples({ origin, keys }: TranscriptionExamplesProps) {
  const { t } = useTranslation();
  const onPremiseEdition = useConsoleConfig().data?.edition === 'on_premise';
  const headingId = useId();
  const activeKeys = activeKeysNewestFirst(keys ?? []);
  const [chosenKeyId, setChosenKeyId] = useState<string | null>(null);
  const shownKey = activeKeys.find((key) => key.id === chosenKeyId) ?? activeKeys[0] ?? null;
  const apiKey = keyPlaceholder(shownKey?.prefix ?? null);
  const examples = transcriptionExamples(origin, apiKey);

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} fz="lg" id={headingId}>
          {t('screens.apiKeys.transcribe.title')}
        </Title>
        <Text fz="sm">
          <Trans
            i18nKey={
              onPremiseEdition
                ? 'screens.apiKeys.transcribe.introOnPremise'
                : 'screens.apiKeys.transcribe.intro'
            }
            components={{ transcripts: <Code />, openai: <Code /> }}
          />
        </Text>
        <Text fz="sm" c="dimmed" data-testid="transcription-key-hint">
          <Trans
            i18nKey={shownKey ? 'screens.apiKeys.transcribe.keyHint' : 'screens.apiKeys.transcribe.noKeyHint'}
            values={{ key: apiKey, start: apiKeyStart }}
            components={{ code: <Code /> }}
          />
        </Text>
        {activeKeys.length > 1 && (
          <NativeSelect
            label={t('screens.apiKeys.transcribe.keyChoice')}
            value={shownKey?.id}
            onChange={(event) => setChosenKeyId(event.currentTarget.value)}
            data={activeKeys.map((key) => ({
              value: key.id,
              label: key.name ? `${key.prefix}… (${key.name})` : `${key.prefix}…`,
            }))}
            maw={420}
          />
        )}
        <Tabs defaultValue="curl" keepMounted={false}>
          <Tabs.List aria-label={t('screens.apiKeys.transcribe.tabsLabel')}>
            {exampleLanguages.map((language) => (
              <Tabs.Tab key={language} value={language}>
                {tabLabels[language]}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {exampleLanguages.map((language) => (
            <Tabs.Panel key={language} value={language} pt="md">
              <Stack gap="md">
                <Text fz="sm">
                  <Trans
                    i18nKey={`screens.apiKeys.transcribe.intros.${language}`}
                    components={{ code: <Code /> }}
                  />
                </Text>
                {examples
                  .filter((example) => example.language === language)
                  .map((example) => (
                    <ExampleBlock key={example.id} example={example} />
                  ))}
              </Stack>
            </Tabs.Panel>
          ))}
        </Tabs>
      </Stack>
    </Card>
  );
}

/** One titled example with its copy button; the code scrolls sideways rather than widen the page. */
function ExampleBlock({ example }: { example: TranscriptionExample }) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Stack gap={4} role="group" aria-labelledby={titleId} miw={0}>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Text fz="sm" fw={600} id={titleId}>
          {t(`screens.apiKeys.transcribe.examples.${example.id}`)}
        </Text>
        {/* Never squeezed by a long title on a phone: the title wraps instead. */}
        <Box style={{ flexShrink: 0 }}>
          <CopyValueButton value={example.code} label={t('screens.apiKeys.transcribe.copy')} />
        </Box>
      </Group>
      <Code
        block
        data-testid={`transcription-example-${example.id}`}
        // Focusable so that keyboard users can scroll a long line into view.
        tabIndex={0}
        style={{ whiteSpace: 'pre', overflowX: 'auto', maxWidth: '100%' }}
      >
        {example.code}
      </Code>
    </Stack>
  );
}
