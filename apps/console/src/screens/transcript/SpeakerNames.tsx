import { Button, Card, Group, SimpleGrid, Text, TextInput, Title } from '@mantine/core';
import { type FileTranscript, speakerNameSchema, type TranscriptSpeaker } from '@verbatim/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fileTranscriptQuery, renameSpeakers } from './transcriptApi';
import { speakerColor } from './TranscriptTurns';

/**
 * The speakers of a diarized transcript, each with a name to give: saved on the file, the names
 * replace S1, S2… on this page and in every download and CRM send from then on.
 */
export function SpeakerNames({ fileId, speakers }: { fileId: string; speakers: TranscriptSpeaker[] }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [names, setNames] = useState<Record<string, string>>(() =>
    Object.fromEntries(speakers.map((speaker) => [speaker.id, speaker.name])),
  );
  const changed = speakers
    .map((speaker) => ({ id: speaker.id, name: (names[speaker.id] ?? '').trim() }))
    .filter((speaker, index) => speaker.name !== speakers[index]?.name);
  const invalid = (id: string) => !speakerNameSchema.safeParse(names[id] ?? '').success;
  const save = useMutation({
    mutationFn: () => renameSpeakers(fileId, { speakers: changed }),
    meta: {
      successMessage: 'screens.transcript.speakersSaved',
      errorMessage: 'screens.transcript.speakersFailed',
    },
    onSuccess: (saved) =>
      queryClient.setQueryData(
        fileTranscriptQuery(fileId).queryKey,
        (transcript: FileTranscript | undefined) =>
          transcript ? { ...transcript, speakers: saved.speakers } : transcript,
      ),
  });

  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="speaker-names-title">
      <Title order={2} fz="h4" id="speaker-names-title">
        {t('screens.transcript.speakersTitle')}
      </Title>
      <Text fz="sm" c="dimmed" mb="sm">
        {t('screens.transcript.speakersIntro')}
      </Text>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (changed.length > 0 && !speakers.some((speaker) => invalid(speaker.id))) save.mutate();
        }}
      >
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm">
          {speakers.map((speaker) => (
            <TextInput
              key={speaker.id}
              label={t('screens.transcript.speakerLabel', { id: speaker.id })}
              value={names[speaker.id] ?? ''}
              maxLength={80}
              error={invalid(speaker.id) ? t('screens.transcript.speakerNameInvalid') : undefined}
              onChange={(event) => {
                const { value } = event.currentTarget;
                setNames((current) => ({ ...current, [speaker.id]: value }));
              }}
              styles={{ label: { color: `var(--mantine-color-${speakerColor(speaker.id)}-8)` } }}
            />
          ))}
        </SimpleGrid>
        <Group justify="flex-end" mt="sm">
          <Button type="submit" loading={save.isPending} disabled={changed.length === 0}>
            {t('screens.transcript.saveSpeakers')}
          </Button>
        </Group>
      </form>
    </Card>
  );
}
