import { Alert, Button, Card, Group, Menu, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { IconCheck, IconChevronDown, IconCopy, IconDownload, IconPlugConnected } from '@tabler/icons-react';
import type { SubmittedFile } from '@verbatim/contracts';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { copyFeedbackMs } from '../../clipboard/CopyValueButton';
import { DownloadFormatItems, useTranscriptDownload } from '../submittedFiles/TranscriptDownloads';
import { TranscriptStatusBadge } from '../submittedFiles/TranscriptStatusBadge';
import { SpeakerNames } from './SpeakerNames';
import { fileTranscriptQuery, recordingAudioUrlQuery, submittedFileQuery } from './transcriptApi';
import { TranscriptTurns } from './TranscriptTurns';
import { lowConfidenceThreshold, pageTurnsOf, transcriptText } from './transcriptTurns';
import classes from './TranscriptView.module.css';
import { usePlayback, useSpaceToPlay } from './usePlayback';

// The CRM browser (contacts search, note and task fields) loads when Send to CRM is first pressed.
const SendToCrmModal = lazy(async () => ({
  default: (await import('../integrations/SendToCrmModal')).SendToCrmModal,
}));

/** /submitted-files/{fileId}: one file's recording and transcript, to play, check, rename, download and send. */
export function TranscriptScreen() {
  const { t } = useTranslation();
  const { fileId = '' } = useParams();
  const file = useQuery(submittedFileQuery(fileId));

  return (
    <Stack gap="lg" py="md">
      <Group justify="space-between" align="flex-start" gap="sm">
        <div style={{ minWidth: 0 }}>
          <Title order={1} style={{ overflowWrap: 'anywhere' }}>
            {file.data?.fileName ?? t('screens.transcript.title')}
          </Title>
          <Text c="dimmed" fz="sm" mt={4} ff="monospace">
            {fileId}
          </Text>
        </div>
        {file.data && <TranscriptActions file={file.data} />}
      </Group>
      {file.isPending && <Skeleton h={120} aria-label={t('chrome.loading')} />}
      {file.isError && (
        <Alert color="orange" variant="light" role="alert">
          {t('screens.transcript.fileUnavailable')}
        </Alert>
      )}
      {file.data && file.data.transcriptStatus !== 'done' && (
        <Card withBorder radius="md">
          <Group gap="sm">
            {file.data.isCompleted ? <TranscriptStatusBadge file={file.data} /> : null}
            <Text>{file.data.failureReason ?? t('screens.transcript.notReady')}</Text>
          </Group>
        </Card>
      )}
      {file.data?.transcriptStatus === 'done' && <TranscriptBody fileId={fileId} />}
    </Stack>
  );
}

/** Copy, Download in every format and Send to CRM: what the files table offers, for this transcript. */
function TranscriptActions({ file }: { file: SubmittedFile }) {
  const { t } = useTranslation();
  const download = useTranscriptDownload(file);
  const transcript = useQuery({ ...fileTranscriptQuery(file.id), enabled: file.transcriptStatus === 'done' });
  const clipboard = useClipboard({ timeout: copyFeedbackMs });
  const [sending, setSending] = useState(false);
  const done = file.transcriptStatus === 'done';
  return (
    <Group gap="xs">
      <Button
        variant={clipboard.copied ? 'filled' : 'default'}
        color={clipboard.copied ? 'teal' : undefined}
        leftSection={
          clipboard.copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />
        }
        disabled={!transcript.data}
        onClick={() =>
          transcript.data &&
          clipboard.copy(transcriptText(pageTurnsOf(transcript.data), transcript.data.speakers))
        }
      >
        {clipboard.copied ? t('screens.transcript.copied') : t('screens.transcript.copy')}
      </Button>
      <Menu position="bottom-end" withinPortal shadow="md">
        <Menu.Target>
          <Button
            variant="default"
            leftSection={<IconDownload size={16} aria-hidden />}
            rightSection={<IconChevronDown size={14} aria-hidden />}
            loading={download.isPending}
            disabled={!done}
          >
            {t('screens.transcript.download')}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <DownloadFormatItems file={file} onDownload={download.mutate} />
        </Menu.Dropdown>
      </Menu>
      <Button
        variant="default"
        leftSection={<IconPlugConnected size={16} aria-hidden />}
        disabled={!done}
        onClick={() => setSending(true)}
      >
        {t('screens.integrations.send.action')}
      </Button>
      {sending && (
        <Suspense fallback={null}>
          <SendToCrmModal
            transcript={{ id: file.id, name: file.fileName }}
            onClose={() => setSending(false)}
          />
        </Suspense>
      )}
    </Group>
  );
}

function TranscriptBody({ fileId }: { fileId: string }) {
  const { t } = useTranslation();
  const transcript = useQuery(fileTranscriptQuery(fileId));
  const audioUrl = useQuery(recordingAudioUrlQuery(fileId));
  const audio = useRef<HTMLAudioElement>(null);
  const turns = useMemo(() => (transcript.data ? pageTurnsOf(transcript.data) : []), [transcript.data]);
  const words = useMemo(() => turns.flatMap((turn) => turn.words), [turns]);
  const { playing, activeWord, playFrom, togglePlay } = usePlayback(audio, words);
  useSpaceToPlay(togglePlay);

  if (transcript.isPending) return <Skeleton h={240} aria-label={t('chrome.loading')} />;
  if (transcript.isError)
    return (
      <Alert color="orange" variant="light" role="alert">
        {t('screens.transcript.transcriptUnavailable')}
      </Alert>
    );
  const speakers = transcript.data.speakers;

  return (
    <>
      <Card withBorder radius="md" padding="sm" className={classes.player}>
        {audioUrl.isError ? (
          <Text c="orange" fz="sm" role="alert">
            {t('screens.transcript.audioUnavailable')}
          </Text>
        ) : (
          // The browser's own controls: keyboard-usable and read by screen readers in every language.
          <audio
            ref={audio}
            controls
            preload="metadata"
            src={audioUrl.data?.url}
            aria-label={t('screens.transcript.player')}
            style={{ width: '100%', display: 'block' }}
            onError={() => void audioUrl.refetch()}
          />
        )}
        <Text fz="xs" c="dimmed" mt={4}>
          {t('screens.transcript.keyboardHint')}
        </Text>
      </Card>
      {speakers && speakers.length > 0 && (
        // Keyed by the saved names so that the form starts again from them after a save.
        <SpeakerNames
          key={speakers.map((speaker) => speaker.name).join('\n')}
          fileId={fileId}
          speakers={speakers}
        />
      )}
      <Card withBorder radius="md" padding="lg">
        <Text fz="xs" c="dimmed" mb="sm">
          <span className={classes.low}>{t('screens.transcript.lowConfidenceSample')}</span>
          {t('screens.transcript.lowConfidenceLegend', {
            threshold: Math.round(lowConfidenceThreshold * 100),
          })}
        </Text>
        {turns.length === 0 ? (
          <Text>{t('screens.transcript.empty')}</Text>
        ) : (
          <TranscriptTurns
            turns={turns}
            speakers={speakers}
            activeWord={activeWord}
            follow={playing}
            onSeek={playFrom}
          />
        )}
      </Card>
    </>
  );
}
